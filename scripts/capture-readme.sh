#!/usr/bin/env bash
# Regenerate the README's picture of the request view from a real terminal run:
# start the release binary in a detached tmux session (100x32) on the demo profile with empty
# config/data dirs, freeze the timestamp, focus the query field and type a query, then capture
# the pane as text into docs/tui-request-view.txt and between the README markers.
set -euo pipefail
cd "$(dirname "$0")/.."
# SIGNSCOPE_BIN=path/to/signscope skips the release build (any build draws the same screen).
if [ -z "${SIGNSCOPE_BIN:-}" ]; then
  cargo build --release --quiet
  bin="$PWD/target/release/signscope"
else
  bin="$SIGNSCOPE_BIN"
fi
tmp=$(mktemp -d)
sock="signscope-capture-$$"
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
tmux -L "$sock" new-session -d -x 100 -y 32 \
  -e SIGNSCOPE_CONFIG_DIR="$tmp/config" -e SIGNSCOPE_DATA_DIR="$tmp/data" -e NO_COLOR=1 "$bin"
wait_for() {
  for _ in $(seq 1 100); do
    if tmux -L "$sock" capture-pane -p | grep -q -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "capture-readme: timed out waiting for '$1'" >&2
  tmux -L "$sock" capture-pane -p >&2
  exit 1
}
wait_for "✓"
tmux -L "$sock" send-keys C-t
wait_for "timestamp frozen"
# Body -> URL -> Method -> Path -> Query
tmux -L "$sock" send-keys Tab Tab Tab Tab
tmux -L "$sock" send-keys -l "test=1"
wait_for "QUERY  test=1"
sleep 0.3
wait_for "✓"
tmux -L "$sock" capture-pane -p | sed -e 's/[[:space:]]*$//' > docs/tui-request-view.txt
tmux -L "$sock" send-keys C-c
python3 - <<'PY'
import re
readme = open("README.md").read()
capture = open("docs/tui-request-view.txt").read().rstrip("\n")
start, end = "<!-- tui-capture:start -->", "<!-- tui-capture:end -->"
block = f"{start}\n```text\n{capture}\n```\n{end}"
if start in readme:
    readme = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: block, readme, flags=re.S)
else:
    raise SystemExit("README.md has no tui-capture markers")
open("README.md", "w").write(readme)
PY
echo "capture-readme: wrote docs/tui-request-view.txt and updated README.md"
