// A page on another origin calls atento-serve with fetch, in headless Chromium: a server
// without --cors-origin is blocked by the browser, one with --cors-origin ORIGIN answers a page
// from ORIGIN (preflighted JSON and plain form requests alike) and still not one from elsewhere.
// Used by tests/e2e/e2e_page_cors.sh:
//   node cors_test.js CHROMIUM STATIC_PORT PLAIN_URL CORS_URL
// serves a small page on http://127.0.0.1:STATIC_PORT (the allowed origin) and on
// http://127.0.0.2:STATIC_PORT (another one). Prints "ok: …" / "FAIL: …"; exit 1 on a failure.
"use strict";
const http = require("http");
const { ok, fail, check, launch, run } = require("./browser_test");

const [chromium, staticPort, plainUrl, corsUrl] = process.argv.slice(2);

const PAGE = "<!doctype html><html lang=en><meta charset=utf-8><title>another origin</title>" +
             "<p>A page that calls a translation server.</p></html>";

/// A static server of the page on host:port; resolves once listening, rejects if it cannot.
function serveStatic(host) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, {"Content-Type": "text/html; charset=utf-8"});
    res.end(PAGE);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(staticPort), host, () => resolve(server));
  });
}

/// fetch() run inside the page (so under its origin): {ok, status, body} or {blocked, error}.
function fetchFromPage(page, url, init) {
  return page.evaluate(async (url, init) => {
    try {
      const response = await fetch(url, init);
      return {ok: response.ok, status: response.status, body: await response.json()};
    } catch (error) {
      return {blocked: true, error: String(error)};
    }
  }, url, init);
}

const jsonPost = (body) => ({
  method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
// A "simple" request (no preflight): the browser sends it, then hides the answer without CORS.
const formPost = (fields) => ({
  method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded"},
  body: new URLSearchParams(fields).toString()});

async function main() {
  const request = {q: "Where is the station?", source: "en", target: "es"};
  // Outside a browser both servers answer: what the browser blocks below, it blocks for CORS.
  const direct = await (await fetch(`${corsUrl}/translate`, jsonPost(request))).json();
  const plain = await (await fetch(`${plainUrl}/translate`, jsonPost(request))).json();
  check(plain.translatedText === direct.translatedText && direct.translatedText,
        "outside a browser both servers answer POST /translate", JSON.stringify([plain, direct]));
  const servers = [await serveStatic("127.0.0.1")];
  let otherOrigin = null;
  try {
    servers.push(await serveStatic("127.0.0.2"));
    otherOrigin = `http://127.0.0.2:${staticPort}`;
  } catch (e) {
    console.log(`note: no second loopback address (${e.message}); the other-origin check is left out`);
  }
  const browser = await launch(chromium);
  try {
    const page = await browser.newPage();
    const origin = `http://127.0.0.1:${staticPort}`;
    await page.goto(`${origin}/`);

    let r = await fetchFromPage(page, `${plainUrl}/translate`, jsonPost(request));
    check(r.blocked, "without --cors-origin: the browser blocks a JSON POST /translate (preflight)",
          JSON.stringify(r));
    r = await fetchFromPage(page, `${plainUrl}/translate`, formPost(request));
    check(r.blocked, "without --cors-origin: the browser hides a form POST /translate's answer",
          JSON.stringify(r));

    r = await fetchFromPage(page, `${corsUrl}/translate`, jsonPost(request));
    check(r.ok && r.body.translatedText === direct.translatedText,
          `--cors-origin ${origin}: a JSON POST /translate from that origin is answered, as without a browser`,
          JSON.stringify(r));
    r = await fetchFromPage(page, `${corsUrl}/translate`, formPost(request));
    check(r.ok && r.body.translatedText === direct.translatedText,
          `--cors-origin ${origin}: a form POST /translate is answered`, JSON.stringify(r));
    r = await fetchFromPage(page, `${corsUrl}/languages`, {});
    check(r.ok && Array.isArray(r.body) && r.body.some((l) => l.code === "en"),
          `--cors-origin ${origin}: GET /languages is answered`, JSON.stringify(r));
    r = await fetchFromPage(page, `${corsUrl}/attention`, jsonPost(request));
    check(r.ok && Array.isArray(r.body) && r.body.length === 1 && r.body[0].layers.length > 0,
          `--cors-origin ${origin}: POST /attention is answered`, JSON.stringify(r).slice(0, 200));

    if (otherOrigin) {
      await page.goto(`${otherOrigin}/`);
      r = await fetchFromPage(page, `${corsUrl}/translate`, jsonPost(request));
      check(r.blocked, `--cors-origin ${origin}: a page from ${otherOrigin} is still blocked`,
            JSON.stringify(r));
    }
  } finally {
    await browser.close();
    for (const server of servers) server.close();
  }
}

run(main, "the CORS test");
