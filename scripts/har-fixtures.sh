#!/usr/bin/env bash
# Capture real HAR files as test fixtures under tests/data/har/.
#
#   scripts/har-fixtures.sh
#
# 1. chromium-klevu-core.har: headless Chromium (driven by playwright-core from the npm registry,
#    /usr/bin/chromium, with recordHar) opens a shop page, http://shop.example/, that loads the
#    vendor's SDK build (@klevu/core's ESM build from the npm registry, served as it is by a local
#    static server) and calls its public functions: a recommendation view, a click and a
#    purchase (KlevuEvents.buy). The SDK posts to http://stats.ksearchnet.com/analytics/collect.
#    Chromium's --host-resolver-rules map shop.example to the static server and
#    stats.ksearchnet.com to a local `signscope serve`, and every other name to nothing, so the
#    HAR names the real hosts while nothing leaves the machine.
# 2. mitmproxy-indexing.har: mitmdump (`--set hardump=FILE`) as an HTTP proxy in front of the same
#    `signscope serve`; a Python client (its own signer: hmac and hashlib, nothing of signscope)
#    sends signed indexing requests through it: correct ones for two accounts, one signed as the
#    vendor's PHP SDK signs ('?' before the query), one with the trailing '/' trimmed, and one
#    whose body was changed after signing.
#
# Needs cargo, node and npm, chromium, python3 and mitmdump (pip install mitmproxy). Network: the
# npm registry and loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/tests/data/har
# The fixture accounts (not secrets: they exist only in these fixtures).
JS_KEY=klevu-1234567890
REST_KEY=FixtureRestKey0123456789
JS_KEY2=klevu-2222222222
REST_KEY2=SecondFixtureKey98765

TMP=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$OUT"

BIN=${SIGNSCOPE_BIN:-}
if [ -z "$BIN" ]; then
  cargo build --quiet
  BIN=target/debug/signscope
fi
HAR_FIXTURE_KEY=$REST_KEY HAR_FIXTURE_KEY2=$REST_KEY2 "$BIN" serve --addr 127.0.0.1:0 \
  --header-prefix KLEVU --account "$JS_KEY=HAR_FIXTURE_KEY" --account "$JS_KEY2=HAR_FIXTURE_KEY2" \
  > "$TMP/serve.out" 2> "$TMP/serve.err" &
PIDS+=($!)
for _ in $(seq 50); do
  grep -q '^listening on ' "$TMP/serve.out" 2>/dev/null && break
  sleep 0.1
done
URL=$(sed -n 's/^listening on //p' "$TMP/serve.out" | head -1)
[ -n "$URL" ] || { echo "signscope serve did not start: $(cat "$TMP/serve.err")" >&2; exit 1; }
SERVE_PORT=${URL##*:}
echo "local server: $URL"

# ---------------------------------------------------------------------------------------------
# 1. Chromium and @klevu/core
(cd "$TMP" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent @klevu/core@latest playwright-core >/dev/null)
SDK_VERSION=$(node -p "require('$TMP/node_modules/@klevu/core/package.json').version")
cat > "$TMP/page.html" <<HTML
<!doctype html>
<html><head><meta charset="utf-8"><title>Northpeak shop</title></head>
<body>
<h1>Trending now</h1>
<img src="/logo.svg" alt="">
<script type="module">
import { KlevuConfig, KlevuEvents } from "/sdk/index.js";
KlevuConfig.init({
  url: "http://shop.example/cs/v2/search",
  apiKey: "$JS_KEY",
  eventsApiV2Url: "http://stats.ksearchnet.com/analytics/collect",
});
const meta = { recsKey: "k-rec-fixture-1", logic: "TRENDING", title: "Trending now",
  spotKey: "spot-home-1", spotName: "Home top", segmentKey: "seg-all", segmentName: "Everyone" };
const products = [
  { id: "10023-BLK-42", itemGroupId: "10023", variantId: "BLK-42", name: "Trail running shoe",
    price: "89.90", salePrice: "89.90", currency: "EUR", brand: "Northpeak",
    category: "Mens;Shoes;Trainers;;Sale" },
  { id: "31337", itemGroupId: "31337", name: "Water bottle", price: "12.00", salePrice: "12.00",
    currency: "EUR", brand: "Northpeak", category: "Accessories;Bottles" },
];
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
KlevuEvents.recommendationView({ recommendationMetadata: meta, products });
await pause(400);
KlevuEvents.recommendationClick({ recommendationMetadata: meta, product: products[0], productIndexInList: 1, variantId: "BLK-42" });
await pause(400);
KlevuEvents.buy({ items: [{ amount: 1, product: products[0], variantId: "BLK-42", orderId: "ORD-1001", orderLineId: "ORD-1001-1" }] });
await pause(400);
window.fixtureDone = true;
</script>
</body></html>
HTML
cat > "$TMP/browser.mjs" <<'JS'
// node browser.mjs SERVE_PORT HAR_OUT SDK_DIR PAGE
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");
const [servePort, harOut, sdkDir, pageFile] = process.argv.slice(2);
const logo = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';
const server = http.createServer((req, res) => {
  const u = new URL(req.url, "http://shop.example");
  if (u.pathname === "/") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    return res.end(fs.readFileSync(pageFile));
  }
  if (u.pathname === "/logo.svg") {
    res.writeHead(200, { "content-type": "image/svg+xml" });
    return res.end(logo);
  }
  if (u.pathname.startsWith("/sdk/")) {
    const file = path.join(sdkDir, path.normalize(u.pathname.slice(5)));
    if (file.startsWith(sdkDir) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      return res.end(fs.readFileSync(file));
    }
  }
  res.writeHead(404, { "content-type": "text/plain" });
  res.end("not found");
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const staticPort = server.address().port;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    `--host-resolver-rules=MAP shop.example 127.0.0.1:${staticPort}, MAP stats.ksearchnet.com 127.0.0.1:${servePort}, MAP * ~NOTFOUND`],
});
const context = await browser.newContext({ recordHar: { path: harOut, content: "embed" } });
const page = await context.newPage();
page.on("console", (m) => console.log("  page:", m.text()));
await page.goto("http://shop.example/");
await page.waitForFunction(() => window.fixtureDone === true, null, { timeout: 20000 });
// The beacon of the purchase is sent after the page's last line: wait for the collector.
for (let i = 0; i < 50; i++) {
  const s = await (await fetch(`http://127.0.0.1:${servePort}/_inspect/summary`)).json();
  if (s.batches >= 3) break;
  await new Promise((r) => setTimeout(r, 100));
}
await context.close();
await browser.close();
server.close();
JS
(cd "$TMP" && node browser.mjs "$SERVE_PORT" "$OUT/chromium-klevu-core.har" "$TMP/node_modules/@klevu/core/dist/mjs" "$TMP/page.html")
echo "  chromium-klevu-core.har: $(grep -c '"startedDateTime"' "$OUT/chromium-klevu-core.har") entries (@klevu/core $SDK_VERSION)"

# ---------------------------------------------------------------------------------------------
# 2. mitmproxy and a signing client
PROXY_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rm -f "$OUT/mitmproxy-indexing.har"
mitmdump -q --listen-host 127.0.0.1 --listen-port "$PROXY_PORT" \
  --set hardump="$OUT/mitmproxy-indexing.har" > "$TMP/mitm.out" 2>&1 &
MITM_PID=$!
PIDS+=($MITM_PID)
for _ in $(seq 100); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $PROXY_PORT), 0.2)" 2>/dev/null && break
  sleep 0.1
done
cat > "$TMP/client.py" <<'PY'
"""Signed indexing requests through an HTTP proxy; its own signer (docs/signing.md's layout)."""
import base64, datetime, hashlib, hmac, http.client, json, sys

proxy_port, serve_port, api1, key1, api2, key2 = sys.argv[1:]
target = "127.0.0.1:%s" % serve_port

def now(php=False):
    t = datetime.datetime.now(datetime.timezone.utc)
    if php:  # PHP's date('c')
        return t.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)

def send(method, path, query, body, api, key, signed_path=None, signed_query=None, php=False, sent_body=None):
    ts = now(php)
    text = "\n".join([method, signed_path if signed_path is not None else path,
                      signed_query if signed_query is not None else query,
                      "X-KLEVU-TIMESTAMP=" + ts, "X-KLEVU-APIKEY=" + api,
                      "X-KLEVU-AUTH-ALGO=HmacSHA384", "Content-Type=application/json"]) + "\n" + body
    sig = base64.b64encode(hmac.new(key.encode(), text.encode(), hashlib.sha384).digest()).decode()
    out = (sent_body if sent_body is not None else body).encode()
    headers = {"Content-Type": "application/json", "X-KLEVU-APIKEY": api,
               "X-KLEVU-AUTH-ALGO": "HmacSHA384", "X-KLEVU-TIMESTAMP": ts,
               "Authorization": "Bearer " + sig, "User-Agent": "har-fixtures client"}
    c = http.client.HTTPConnection("127.0.0.1", int(proxy_port), timeout=10)
    url = "http://%s%s%s" % (target, path, "?" + query if query else "")
    c.request(method, url, body=out if method != "GET" else None, headers=headers)
    r = c.getresponse()
    answer = r.read()
    print("  %s %s%s -> %d" % (method, path, "?" + query if query else "", r.status))
    c.close()

record = json.dumps([{"id": "10023-BLK-42", "type": "KLEVU_PRODUCT",
                      "attributes": {"name": {"default": "Trail running shoe"}, "sku": "10023-BLK-42"}}])
send("PUT", "/v2/batch", "", record, api1, key1)                                   # correct
send("GET", "/v2/attributes", "", "", api1, key1)                                  # correct
send("PUT", "/v2/batch", "", "[]", api2, key2)                                     # correct, 2nd account
send("PUT", "/v2/batch", "test=1", "[]", api1, key1, signed_query="?test=1", php=True)   # PHP SDK form
send("PUT", "/v2/batch/", "", "[]", api1, key1, signed_path="/v2/batch")           # '/' trimmed
send("PUT", "/v2/batch", "", record, api1, key1, sent_body=record.replace("Trail", "Road"))  # tampered
PY
python3 "$TMP/client.py" "$PROXY_PORT" "$SERVE_PORT" "$JS_KEY" "$REST_KEY" "$JS_KEY2" "$REST_KEY2"
# mitmdump writes the HAR when it stops.
kill -INT "$MITM_PID"
for _ in $(seq 100); do kill -0 "$MITM_PID" 2>/dev/null || break; sleep 0.1; done
[ -s "$OUT/mitmproxy-indexing.har" ] || { echo "mitmdump wrote no HAR: $(cat "$TMP/mitm.out")" >&2; exit 1; }
MITM_VERSION=$(mitmdump --version 2>/dev/null | sed -n 's/^Mitmproxy: //p' | head -1)

cat > "$OUT/source.json" <<JSON
{
  "captured_by": "scripts/har-fixtures.sh",
  "chromium-klevu-core.har": {
    "browser": "$(/usr/bin/chromium --version 2>/dev/null | head -1)",
    "sdk": "@klevu/core $SDK_VERSION",
    "calls": ["KlevuEvents.recommendationView", "KlevuEvents.recommendationClick", "KlevuEvents.buy"],
    "hosts": {"shop.example": "the shop page (static server)", "stats.ksearchnet.com": "signscope serve"}
  },
  "mitmproxy-indexing.har": {
    "proxy": "mitmdump $MITM_VERSION",
    "requests": ["PUT /v2/batch (correct)", "GET /v2/attributes (correct)", "PUT /v2/batch (correct, second account)",
                 "PUT /v2/batch?test=1 (signed as the PHP SDK signs)", "PUT /v2/batch/ (signed with the '/' trimmed)",
                 "PUT /v2/batch (body changed after signing)"]
  },
  "accounts": {"$JS_KEY": "$REST_KEY", "$JS_KEY2": "$REST_KEY2"},
  "header_prefix": "KLEVU"
}
JSON
echo "fixtures written under tests/data/har/"
