#!/usr/bin/env bash
# Build the two events of the vendor's frontend SDK's 2022 swapped-names release
# (docs/events.md rule E26) into tests/data/vendor/swapped-names-2022/: that release sent the
# impression of a rendered recommendation list under the click's name (`select_recs_list`
# carrying the whole list) and the click under the impression's name (`view_recs_list` carrying
# the one clicked item, its index the click position).
#
#   scripts/swapped-names-fixture.sh
#
# The events are made from the requests @klevu/core 2.0.10 itself sent for that list's view and
# click (tests/data/vendor/klevu-core-2.0.10/view.json and click.json, captured by
# scripts/vendor-fixtures.sh), with only their `event` names exchanged, as that release sent them;
# the release itself is not run here. Needs jq; no network. Read by tests/vendor_server.rs and
# tests/cli_check.rs, offline.
set -euo pipefail
cd "$(dirname "$0")/.."
FROM=tests/data/vendor/klevu-core-2.0.10
OUT=tests/data/vendor/swapped-names-2022
mkdir -p "$OUT"
# The list rendered: its view, sent as a select.
jq -c 'map(.event = "select_recs_list")' "$FROM/view.json" > "$OUT/render.json"
# The product clicked: its click, sent as a view.
jq -c 'map(.event = "view_recs_list")' "$FROM/click.json" > "$OUT/click.json"
jq -n --arg from "$FROM" '{
  reproduces: "the vendor frontend SDK release of 2022 that swapped view_recs_list and select_recs_list (docs/events.md rule E26)",
  built_from: [($from + "/view.json"), ($from + "/click.json")],
  requests: [
    {file: "render.json", when: "the list renders", sent_as: "select_recs_list", should_be: "view_recs_list"},
    {file: "click.json", when: "a product is clicked", sent_as: "view_recs_list", should_be: "select_recs_list"}
  ]
}' > "$OUT/source.json"
echo "wrote $OUT"
