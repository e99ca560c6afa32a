#!/usr/bin/env bash
# The collector's throughput with wrk (2 threads, 16 connections, two-event batches posted to
# /analytics/collect), its p99 latency, and the idle private memory of `signscope serve` (from
# /proc/PID/smaps_rollup, before and after the load), and the server's CPU time per request
# (user + system, from /proc/PID/stat: what a request costs whatever else the machine runs,
# where req/s on a shared machine is the server's share of the cores). Needs wrk (`apt-get install wrk`) and a
# release binary (`cargo build --release`, or the one `cargo bench` builds).
# Usage: benches/collector_wrk.sh [BINARY] [SECONDS]   (default: target/release/signscope 15)
set -euo pipefail
bin=${1:-"$(dirname "$0")/../target/release/signscope"}
secs=${2:-15}
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk"; exit 2; }
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
"$bin" serve --addr 127.0.0.1:0 --ready-file "$dir/ready.json" >"$dir/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do [ -s "$dir/ready.json" ] && break; sleep 0.05; done
url=$(sed -n 's/.*"url": *"\([^"]*\)".*/\1/p' "$dir/ready.json")
private() { awk '/^Private_(Clean|Dirty)/ {kib += $2} END {printf "%.1f MiB", kib / 1024}' "/proc/$pid/smaps_rollup"; }
echo "idle private memory before load: $(private)"
cat >"$dir/post.lua" <<'EOF'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [=[[{"event":"view_recs_list","event_apikey":"klevu-1234567890","event_version":"1.0.0","user_profile":{"sessionId":"s-1"},"event_data":{"list_id":"k-rec-1","list_name":"Trending now","list_logic":"TRENDING","spot_id":"spot-home-1","spot_name":"Home top","segment_id":"seg-all","segment_name":"Everyone","items":[{"item_id":"10023-BLK-42","item_group_id":"10023","item_variant_id":"BLK-42","item_name":"Trail running shoe","price":"89.90","currency":"EUR","index":1}]}},{"event":"view_recs_list","event_apikey":"klevu-1234567890","event_version":"1.0.0","user_profile":{"sessionId":"s-1"},"event_data":{"list_id":"k-rec-2","list_name":"Also bought","list_logic":"ALSO_BOUGHT","spot_id":"spot-pdp-1","spot_name":"Product page","segment_id":"seg-all","segment_name":"Everyone","items":[{"item_id":"31337","item_group_id":"31337","item_variant_id":"31337","item_name":"Water bottle","price":"12.00","currency":"EUR","index":1}]}}]]=]
EOF
# One request first: the batch must be accepted (a 400 would measure the error path).
status=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary "$(sed -n 's/^wrk.body = \[=\[\(.*\)\]=\]$/\1/p' "$dir/post.lua")" "$url/analytics/collect")
echo "one batch: HTTP $status"
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
before=$(ticks)
wrk -t2 -c16 -d"${secs}s" --latency -s "$dir/post.lua" "$url/analytics/collect" | tee "$dir/wrk.txt"
after=$(ticks)
requests=$(awk '/requests in/ {print $1}' "$dir/wrk.txt")
hz=$(getconf CLK_TCK)
awk -v t=$((after - before)) -v n="$requests" -v hz="$hz" \
    'BEGIN {printf "server CPU per request: %.1f us (%d requests)\n", t / hz / n * 1e6, n}'
echo "private memory after load: $(private)"
