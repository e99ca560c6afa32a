// A recording reverse proxy in front of the local `signscope serve`: the SDK under a browser
// (jsdom or Chromium) talks to it as its analytics host, it writes each request exactly as it
// arrived (method, target, headers, body bytes) and passes it on unchanged; the answer, CORS
// headers included, is the server's own. The server's inspection API keeps the parsed events,
// not the bytes and headers a browser sent, so the capture is taken here, on the wire.
//
// Each analytics request is written to OUT_DIR as NAME.http (raw HTTP/1.1), NAME being the
// label of the SDK call that made it. Left out of the file: the headers that describe the
// browser's build or the connection (User-Agent and client hints, Accept-Language,
// Accept-Encoding, Connection); every other header stays, in the order it came.
const fs = require("fs");
const http = require("http");
const path = require("path");

const DROP = /^(user-agent|sec-ch-ua.*|accept-language|accept-encoding|connection|cookie)$/i;

function startTap(upstream, outDir) {
  const up = new URL(upstream);
  const state = { label: null, written: {}, preflights: {}, other: [] };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const label = state.label || "outside-a-call";
      const analytics = req.url.startsWith("/analytics");
      const fwd = http.request({ host: up.hostname, port: up.port, method: req.method, path: req.url,
        headers: req.headers }, (ur) => {
        const answer = [];
        ur.on("data", (c) => answer.push(c));
        ur.on("end", () => {
          res.writeHead(ur.statusCode, ur.headers);
          res.end(Buffer.concat(answer));
          const h = (n) => ur.headers[n] || null;
          if (req.method === "OPTIONS" && analytics) {
            (state.preflights[label] = state.preflights[label] || []).push({
              path: req.url.split("?")[0], origin: req.headers.origin || null,
              request_method: req.headers["access-control-request-method"] || null,
              request_headers: req.headers["access-control-request-headers"] || null,
              status: ur.statusCode, allow_origin: h("access-control-allow-origin"),
              allow_credentials: h("access-control-allow-credentials") });
          } else if (analytics) {
            const list = (state.written[label] = state.written[label] || []);
            const file = label + (list.length ? "-" + (list.length + 1) : "") + ".http";
            let head = `${req.method} ${req.url} HTTP/1.1\r\n`;
            for (let i = 0; i < req.rawHeaders.length; i += 2) {
              if (!DROP.test(req.rawHeaders[i])) head += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
            }
            fs.writeFileSync(path.join(outDir, file), Buffer.concat([Buffer.from(head + "\r\n"), body]));
            list.push({ file, method: req.method, path: req.url.split("?")[0],
              content_type: req.headers["content-type"] || null, origin: req.headers.origin || null,
              status: ur.statusCode, allow_origin: h("access-control-allow-origin"),
              allow_credentials: h("access-control-allow-credentials") });
          } else {
            state.other.push({ call: state.label, method: req.method, path: req.url.split("?")[0], status: ur.statusCode });
          }
        });
      });
      fwd.on("error", (e) => { res.writeHead(502); res.end(String(e)); });
      fwd.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => {
    const url = `http://127.0.0.1:${server.address().port}`;
    resolve({
      url, state, server,
      setLabel(name) { state.label = name; },
      // Until the call's first request arrived (at most 5 s), then 300 ms for any more.
      async settle(name) {
        for (let i = 0; i < 50 && !state.written[name]; i++) await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => setTimeout(r, 300));
      },
      // source.json's record of one call.
      record(name, error) {
        const out = {};
        if (error) out.error = error;
        if (state.written[name]) out.requests = state.written[name];
        else if (!error) out.error = "the SDK sent nothing";
        if (state.preflights[name]) out.preflights = state.preflights[name];
        return out;
      },
      close() { server.close(); server.closeAllConnections && server.closeAllConnections(); },
    });
  }));
}
module.exports = { startTap };
