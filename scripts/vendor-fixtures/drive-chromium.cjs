// node drive-chromium.cjs SERVER_URL OUT_DIR VERSION SDK_DIR CHROMIUM
// Runs @klevu/core's ES module build (dist/mjs, which imports nothing outside itself) in
// headless Chromium: a shop page on its own loopback port imports the build from that port
// (no CDN) and makes the calls of calls.js; the SDK's analytics host is the recording tap
// (tap.cjs) in front of the local `signscope serve`, on another port, so every request is
// cross-origin: the browser sends Origin, makes its CORS preflights, and the SDK takes its
// browser paths (navigator.sendBeacon with a FormData, fetch, sessionStorage). Chromium
// resolves no name but 127.0.0.1, and its background services are off.
const fs = require("fs");
const http = require("http");
const os = require("os");
const path = require("path");
const { spawn, execFileSync } = require("child_process");
const { startTap } = require("./tap.cjs");

const [server, outDir, version, sdkDir, chromium] = process.argv.slice(2);
const major = parseInt(version, 10);
const callsJs = fs.readFileSync(path.join(__dirname, "calls.js"));
const mjs = path.join(sdkDir, "dist/mjs");

(async () => {
  const tap = await startTap(server, outDir);
  const source = {
    package: "@klevu/core", version, environment: "chromium",
    runtime: execFileSync(chromium, ["--version"]).toString().trim() + " (headless)",
    build: "dist/mjs, imported by <script type=module> from the shop page's origin",
    page: "http://127.0.0.1:PORT/products/trail-running-shoe (a loopback origin other than the collector's)",
    captured_by: "scripts/vendor-fixtures.sh", calls: {},
  };
  let finish;
  const finished = new Promise((r) => { finish = r; });
  const page = `<!doctype html><html><head><title>Trail running shoe</title></head><body><p>shop</p>
<script src="/calls.js"></script>
<script type="module" onerror="fetch('/done', {method: 'POST', body: JSON.stringify({error: 'the SDK module did not load'})})">
const report = (p, data) => fetch(p, { method: "POST", body: JSON.stringify(data) });
window.addEventListener("unhandledrejection", (e) => report("/unhandled", { error: String(e.reason) }));
let KlevuConfig, KlevuEvents;
try {
  ({ KlevuConfig, KlevuEvents } = await import("/sdk/index.js"));
  KlevuConfig.init({ url: "${tap.url}/cs/v2/search", apiKey: "${process.env.JS_KEY}",
    eventsApiV1Url: "${tap.url}/analytics/", eventsApiV2Url: "${tap.url}/analytics/collect",
    visitorServiceUrl: "${tap.url}/visitor" });
  const cfg = KlevuConfig.getDefault();
  cfg.eventsApiV1Url = "${tap.url}/analytics/";
  cfg.eventsApiV2Url = "${tap.url}/analytics/collect";
} catch (e) {
  await report("/done", { error: "the SDK did not load in Chromium: " + e });
  throw e;
}
for (const [name, call] of [...klevuCalls(KlevuEvents, ${major}), ...klevuReturningCalls(KlevuEvents, ${major}, localStorage)]) {
  await fetch("/label?name=" + name);
  let error = null;
  try {
    const r = call();
    if (r && typeof r.then === "function") r.catch((e) => report("/unhandled", { error: "the SDK's promise failed: " + e }));
  } catch (e) {
    error = "the SDK threw " + e;
  }
  await fetch("/settle?name=" + name);
  if (error) await report("/error", { name, error });
}
await report("/done", {});
</script></body></html>`;
  const errors = {};
  let label = null;
  const shop = http.createServer((req, res) => {
    const u = new URL(req.url, "http://127.0.0.1");
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : null;
      const ok = (type, data) => { res.writeHead(200, { "Content-Type": type }); res.end(data); };
      if (u.pathname === "/products/trail-running-shoe") return ok("text/html", page);
      if (u.pathname === "/calls.js") return ok("text/javascript", callsJs);
      if (u.pathname.startsWith("/sdk/")) {
        const f = path.join(mjs, path.normalize(u.pathname.slice(5)));
        if (f.startsWith(mjs) && fs.existsSync(f)) return ok("text/javascript", fs.readFileSync(f));
        res.writeHead(404);
        return res.end();
      }
      if (u.pathname === "/label") { label = u.searchParams.get("name"); tap.setLabel(label); return ok("text/plain", ""); }
      if (u.pathname === "/settle") { await tap.settle(u.searchParams.get("name")); return ok("text/plain", ""); }
      if (u.pathname === "/error") { errors[body.name] = body.error; return ok("text/plain", ""); }
      if (u.pathname === "/unhandled") {
        (source.unhandled_rejections = source.unhandled_rejections || []).push({ call: label, error: body.error });
        return ok("text/plain", "");
      }
      if (u.pathname === "/done") { ok("text/plain", ""); return finish(body); }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise((r) => shop.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${shop.address().port}/products/trail-running-shoe`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "vendor-chromium-"));
  const child = spawn(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    `--user-data-dir=${profile}`, "--remote-debugging-port=0", url], { stdio: "ignore" });
  const timeout = setTimeout(() => finish({ error: "Chromium did not finish the calls within 120 s" }), 120000);
  const done = await finished;
  clearTimeout(timeout);
  tap.setLabel(null);
  await tap.settle("outside-a-call");
  child.kill("SIGTERM");
  if (done.error) {
    source.error = done.error;
    console.log(`  @klevu/core ${version} chromium: ${done.error}`);
  }
  for (const name of new Set([...Object.keys(tap.state.written), ...Object.keys(errors)])) {
    if (name === "outside-a-call") continue;
    source.calls[name] = tap.record(name, errors[name]);
  }
  if (tap.state.written["outside-a-call"]) source.calls["outside-a-call"] = tap.record("outside-a-call");
  for (const [name, c] of Object.entries(source.calls)) {
    for (const w of c.requests || []) console.log(`  @klevu/core ${version} chromium ${name}: ${w.method} ${w.path} -> ${w.status} (${w.file})`);
    if (c.error) console.log(`  @klevu/core ${version} chromium ${name}: ${c.error}`);
  }
  if (tap.state.other.length) source.other_requests = tap.state.other;
  fs.writeFileSync(path.join(outDir, "source.json"), JSON.stringify(source, null, 2) + "\n");
  await new Promise((r) => child.once("exit", r));
  fs.rmSync(profile, { recursive: true, force: true });
  tap.close();
  shop.close();
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
