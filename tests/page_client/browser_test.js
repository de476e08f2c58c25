// What the browser tests share: "ok: …" / "FAIL: …" reporting, Chromium started headless
// through puppeteer-core, and running a test to an exit status.
"use strict";
const puppeteer = require("puppeteer-core");

let failed = 0;
const ok = (what) => console.log(`ok: ${what}`);
const fail = (what) => { failed++; console.log(`FAIL: ${what}`); };
const check = (condition, what, detail) => (condition ? ok(what) : fail(`${what}: ${detail}`));

/** Debian's chromium at `executablePath`, headless (no sandbox as root, where it cannot run). */
function launch(executablePath) {
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: (process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : [])
        .concat(["--disable-gpu", "--disable-dev-shm-usage"]),
  });
}

/** Runs the async `main`, then exits 1 if a check failed or it threw (`name` says which). */
function run(main, name) {
  main().then(() => process.exit(failed ? 1 : 0)).catch((err) => {
    console.log(`FAIL: ${name} stopped: ${err.stack || err.message}`);
    process.exit(1);
  });
}

module.exports = { ok, fail, check, launch, run };
