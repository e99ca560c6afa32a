// node drive-jsdom.cjs SERVER_URL OUT_DIR VERSION SDK_DIR JSDOM_DIR
// Runs @klevu/core's build inside a jsdom window, as a test runner's jsdom environment does:
// each module of the SDK's CommonJS build is evaluated in the window's own global scope (so
// `window`, `document`, `localStorage`, `FormData`, `Blob`, `XMLHttpRequest` and
// `navigator` are jsdom's, and the SDK takes its browser paths). jsdom has no `fetch` and no
// `navigator.sendBeacon`; `fetch` is the whatwg-fetch polyfill (over jsdom's XMLHttpRequest,
// which sends Origin and makes CORS preflights), the usual one in jsdom test setups. The page
// is served from its own loopback port; the SDK's analytics host is the recording tap
// (tap.cjs) in front of the local `signscope serve`. Requests outside 127.0.0.1 are refused.
const fs = require("fs");
const http = require("http");
const path = require("path");
const vm = require("vm");
const { startTap } = require("./tap.cjs");
const { klevuCalls, klevuReturningCalls } = require("./calls.js");

const [server, outDir, version, sdkDir, jsdomDir] = process.argv.slice(2);
const major = parseInt(version, 10);
const { JSDOM, VirtualConsole } = require(path.join(jsdomDir, "node_modules/jsdom"));
const jsdomVersion = require(path.join(jsdomDir, "node_modules/jsdom/package.json")).version;
const fetchDir = path.join(jsdomDir, "node_modules/whatwg-fetch");
const fetchVersion = require(path.join(fetchDir, "package.json")).version;

// A promise the SDK leaves unhandled (its own failed request) is recorded, not fatal.
const unhandled = [];
process.on("unhandledRejection", (e) => unhandled.push(String(e)));

(async () => {
  const tap = await startTap(server, outDir);
  const shop = http.createServer((q, r) => {
    r.writeHead(200, { "Content-Type": "text/html" });
    r.end("<!doctype html><html><head><title>Trail running shoe</title></head><body><p>shop</p></body></html>");
  });
  await new Promise((r) => shop.listen(0, "127.0.0.1", r));
  const shopUrl = `http://127.0.0.1:${shop.address().port}/`;
  const pageErrors = [];
  const vc = new VirtualConsole();
  vc.on("jsdomError", (e) => pageErrors.push(String(e.message || e)));
  const dom = await JSDOM.fromURL(shopUrl + "products/trail-running-shoe", {
    referrer: shopUrl, runScripts: "outside-only", pretendToBeVisual: true, virtualConsole: vc,
  });
  const window = dom.window;
  const ctx = dom.getInternalVMContext();
  const realOpen = window.XMLHttpRequest.prototype.open;
  window.XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    const u = new window.URL(url, window.location.href);
    if (u.hostname !== "127.0.0.1") throw new Error("refusing a request outside loopback: " + u);
    return realOpen.call(this, method, url, ...rest);
  };
  vm.runInContext(fs.readFileSync(path.join(fetchDir, "dist/fetch.umd.js"), "utf8"), ctx);

  // A CommonJS loader whose modules run in the window's global scope.
  const cache = {};
  const load = (file) => {
    if (cache[file]) return cache[file].exports;
    const module = { exports: {} };
    cache[file] = module;
    const wrapper = vm.runInContext(
      `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(file, "utf8")}\n})`,
      ctx, { filename: file });
    const dir = path.dirname(file);
    const req = (spec) => {
      if (!spec.startsWith(".")) throw new Error(`the SDK requires ${spec}, which a browser does not have`);
      let f = path.resolve(dir, spec);
      if (!fs.existsSync(f) || fs.statSync(f).isDirectory()) f = fs.existsSync(f + ".js") ? f + ".js" : path.join(f, "index.js");
      return load(f);
    };
    wrapper.call(module.exports, module.exports, req, module, file, dir);
    return module.exports;
  };
  const source = {
    package: "@klevu/core", version, environment: "jsdom",
    runtime: `jsdom ${jsdomVersion} on node ${process.version}`,
    build: "dist/cjs, each module evaluated in the jsdom window's global scope",
    fetch: `whatwg-fetch ${fetchVersion} over jsdom's XMLHttpRequest (jsdom has no fetch and no navigator.sendBeacon)`,
    page: "http://127.0.0.1:PORT/products/trail-running-shoe (a loopback origin other than the collector's)",
    captured_by: "scripts/vendor-fixtures.sh", calls: {},
  };
  let sdk;
  try {
    sdk = load(path.join(sdkDir, "dist/cjs/index.js"));
    const { KlevuConfig } = sdk;
    KlevuConfig.init({
      url: tap.url + "/cs/v2/search", apiKey: process.env.JS_KEY,
      eventsApiV1Url: tap.url + "/analytics/", eventsApiV2Url: tap.url + "/analytics/collect",
      visitorServiceUrl: tap.url + "/visitor",
    });
    const cfg = KlevuConfig.getDefault();
    cfg.eventsApiV1Url = tap.url + "/analytics/";
    cfg.eventsApiV2Url = tap.url + "/analytics/collect";
  } catch (e) {
    source.error = `the SDK did not load in jsdom: ${e}`;
    console.log(`  @klevu/core ${version} jsdom: ${source.error}`);
  }
  if (sdk) {
    const E = sdk.KlevuEvents;
    for (const [name, call] of [...klevuCalls(E, major), ...klevuReturningCalls(E, major, window.localStorage)]) {
      tap.setLabel(name);
      let error = null;
      try {
        const r = call();
        if (r && typeof r.then === "function") r.catch((e) => { error = `the SDK's promise failed: ${e}`; });
      } catch (e) {
        error = `the SDK threw ${e}`;
      }
      const before = unhandled.length;
      await tap.settle(name);
      for (const u of unhandled.slice(before)) (source.unhandled_rejections = source.unhandled_rejections || []).push({ call: name, error: u });
      source.calls[name] = tap.record(name, error);
      const c = source.calls[name];
      for (const w of c.requests || []) console.log(`  @klevu/core ${version} jsdom ${name}: ${w.method} ${w.path} -> ${w.status} (${w.file})`);
      if (c.error) console.log(`  @klevu/core ${version} jsdom ${name}: ${c.error}`);
    }
  }
  tap.setLabel(null);
  await tap.settle("outside-a-call");
  if (tap.state.written["outside-a-call"]) source.calls["outside-a-call"] = tap.record("outside-a-call");
  if (tap.state.other.length) source.other_requests = tap.state.other;
  if (pageErrors.length) source.page_errors = pageErrors;
  fs.writeFileSync(path.join(outDir, "source.json"), JSON.stringify(source, null, 2) + "\n");
  window.close();
  tap.close();
  shop.close();
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
