// Load client of scripts/bench_serve.sh (Node, built-in modules only): C concurrent clients
// send N single-sentence POST /translate requests in all (keep-alive connections, one request
// at a time each) to a loopback atento-serve, sentences taken in turn from a file.
// Usage: node serve_load.js URL SENTENCES_FILE CLIENTS REQUESTS
// Prints one JSON line: clients, requests, errors, seconds, requests_per_s, p50_ms, p99_ms.
"use strict";
const http = require("http");
const fs = require("fs");

const [url, file, clientsArg, requestsArg] = process.argv.slice(2);
const target = new URL(url);
if (!["127.0.0.1", "localhost", "[::1]"].includes(target.hostname)) {
  console.error("error: the load client only talks to loopback, not " + target.hostname);
  process.exit(2);
}
const sentences = fs.readFileSync(file, "utf8").split("\n").filter((s) => s.length > 0);
const clients = parseInt(clientsArg, 10);
const total = parseInt(requestsArg, 10);
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
let next = 0, errors = 0;
const latencies = [];

function request(sentence) {
  const body = JSON.stringify({ q: sentence, source: "en", target: "es", format: "text" });
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request({ hostname: target.hostname, port: target.port, path: "/translate",
      method: "POST", agent, headers: { "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body) } }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (data += c));
      res.on("end", () => {
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        let ok = res.statusCode === 200;
        try { ok = ok && typeof JSON.parse(data).translatedText === "string"; } catch (e) { ok = false; }
        if (!ok) { errors++; if (errors <= 3) console.error(res.statusCode + " " + data); }
        resolve();
      });
    });
    req.on("error", (e) => { errors++; if (errors <= 3) console.error(e.message); resolve(); });
    req.end(body);
  });
}

async function client() {
  while (next < total) await request(sentences[next++ % sentences.length]);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

(async () => {
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = latencies.slice().sort((a, b) => a - b);
  console.log(JSON.stringify({ clients, requests: total, errors, seconds: +seconds.toFixed(3),
    requests_per_s: +(total / seconds).toFixed(1), p50_ms: +percentile(sorted, 0.5).toFixed(1),
    p99_ms: +percentile(sorted, 0.99).toFixed(1) }));
  agent.destroy();
})();
