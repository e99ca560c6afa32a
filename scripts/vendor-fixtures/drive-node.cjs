// node drive-node.cjs ANALYTICS_BASE OUT_DIR VERSION   (run from the directory @klevu/core is installed in)
// Calls @klevu/core's public functions with its analytics URLs pointed at a local
// `signscope serve`, and writes every request the SDK makes there, exactly as sent: a JSON
// body as NAME.json, anything else (a GET with its query, a multipart form) as raw HTTP in
// NAME.http. Every fetch that is not to 127.0.0.1 is refused.
const fs = require("fs");
const path = require("path");
const { klevuCalls } = require("./calls.js");
const [base, outDir, version] = process.argv.slice(2);
const major = parseInt(version, 10);
const realFetch = globalThis.fetch;
let label = null;
const written = {};
globalThis.fetch = async (url, init = {}) => {
  url = String(url);
  if (!url.startsWith("http://127.0.0.1:")) throw new Error("refusing a fetch outside loopback: " + url);
  // The 5.x user session asks the visitor service: not an analytics request, not captured.
  if (!new URL(url).pathname.startsWith("/analytics")) return realFetch(url, init);
  if (!label) throw new Error("a request outside a call: " + url);
  const name = label + (written[label] ? "-" + (written[label].length + 1) : "");
  // The bytes as they go on the wire (a FormData becomes multipart with its boundary).
  const req = new Request(url, init);
  const body = Buffer.from(await req.clone().arrayBuffer());
  const res = await realFetch(req);
  const u = new URL(url);
  const ct = req.headers.get("content-type");
  let file;
  if (ct === "application/json" && body.length > 0) {
    file = name + ".json";
    fs.writeFileSync(path.join(outDir, file), body);
  } else {
    file = name + ".http";
    let head = `${req.method} ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n`;
    if (ct) head += `Content-Type: ${ct}\r\n`;
    head += `Content-Length: ${body.length}\r\n\r\n`;
    fs.writeFileSync(path.join(outDir, file), Buffer.concat([Buffer.from(head), body]));
  }
  (written[label] = written[label] || []).push({ file, method: req.method, path: u.pathname, status: res.status });
  return res;
};
const { KlevuConfig, KlevuEvents } = require(require.resolve("@klevu/core", { paths: [process.cwd()] }));
KlevuConfig.init({
  url: base + "/cs/v2/search",
  apiKey: process.env.JS_KEY,
  eventsApiV1Url: base + "/analytics/",
  eventsApiV2Url: base + "/analytics/collect",
  visitorServiceUrl: base + "/visitor",
});
// Older versions take some URLs only as properties; they are public in every version.
const cfg = KlevuConfig.getDefault();
cfg.eventsApiV1Url = base + "/analytics/";
cfg.eventsApiV2Url = base + "/analytics/collect";

const calls = klevuCalls(KlevuEvents, major);
(async () => {
  const source = { package: "@klevu/core", version, environment: "node", runtime: "node " + process.version, captured_by: "scripts/vendor-fixtures.sh", calls: {} };
  for (const [name, call] of calls) {
    label = name;
    try { call(); } catch (e) { source.calls[name] = { error: String(e) }; console.log(`  @klevu/core ${version} ${name}: the SDK threw ${e}`); continue; }
    for (let i = 0; i < 50 && !written[name]; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 100));
    if (!written[name]) { source.calls[name] = { error: "the SDK sent nothing" }; console.log(`  @klevu/core ${version} ${name}: sent nothing`); continue; }
    source.calls[name] = { requests: written[name] };
    for (const w of written[name]) console.log(`  @klevu/core ${version} ${name}: ${w.method} ${w.path} -> ${w.status} (${w.file})`);
  }
  label = null;
  fs.writeFileSync(path.join(outDir, "source.json"), JSON.stringify(source, null, 2) + "\n");
})().catch((e) => { console.error(e); process.exit(1); });
