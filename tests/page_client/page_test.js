// Drives atento-serve's page in headless Chromium (puppeteer-core, Debian's chromium): types a
// sentence, presses Translate, reads the translation, switches translation, layer and head, and
// checks the heatmap against POST /translate and POST /attention; saves screenshots.
// Used by tests/e2e/e2e_page.sh:  node page_test.js URL CHROMIUM SCREENSHOT.png SENTENCE...
// Prints "ok: …" / "FAIL: …" per check; exit 1 if any failed or the browser could not run.
"use strict";
const { ok, fail, check, launch, run } = require("./browser_test");

const [url, chromium, screenshot, ...sentences] = process.argv.slice(2);

async function api(path, body) {
  const response = await fetch(`${url}/${path}`, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  return response.json();
}

/// What the page's table shows: row and column labels, each cell's hidden weight (2 decimals).
function readTable(page) {
  return page.$eval("#heatmap", (table) => ({
    rows: Number(table.dataset.rows),
    columns: Number(table.dataset.columns),
    rank: Number(table.dataset.rank),
    columnLabels: [...table.querySelectorAll("thead th")].map((th) => th.textContent),
    rowLabels: [...table.querySelectorAll("tbody th")].map((th) => th.textContent),
    cells: [...table.querySelectorAll("tbody tr")].map(
        (tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
    caption: table.querySelector("caption").textContent,
  }));
}

const average = (heads) => heads[0].map((row, t) => row.map((_, s) =>
  heads.reduce((sum, head) => sum + head[t][s], 0) / heads.length));

/// The table shows `matrix` ([T][S]) with the record's tokens as labels.
function checkTable(table, record, hypothesis, matrix, what) {
  check(table.rows === matrix.length && table.cells.length === matrix.length,
        `${what}: one row per output token (${matrix.length})`,
        `${table.cells.length} rows, data-rows ${table.rows}`);
  check(table.columns === record.source_tokens.length &&
        table.cells.every((row) => row.length === record.source_tokens.length),
        `${what}: one column per source token (${record.source_tokens.length})`,
        `row lengths ${table.cells.map((r) => r.length)}`);
  check(JSON.stringify(table.columnLabels) === JSON.stringify(record.source_tokens),
        `${what}: columns labelled with the source tokens`, JSON.stringify(table.columnLabels));
  const labels = matrix.map((_, t) => hypothesis.output_tokens[t] ?? "</s>");
  check(JSON.stringify(table.rowLabels) === JSON.stringify(labels),
        `${what}: rows labelled with the output tokens`, JSON.stringify(table.rowLabels));
  const expected = matrix.map((row) => row.map((w) => Math.max(0, Math.min(1, w)).toFixed(2)));
  const shown = table.cells.map((row) => row.map((text) => Number(text).toFixed(2)));
  check(JSON.stringify(shown) === JSON.stringify(expected), `${what}: every cell shows its weight`,
        `${JSON.stringify(shown).slice(0, 200)} vs ${JSON.stringify(expected).slice(0, 200)}`);
}

async function translateOnPage(page, sentence, how) {
  await page.$eval("#source", (el) => { el.value = ""; });
  await page.type("#source", sentence);
  await page.$eval("#heatmap", (t) => { delete t.dataset.rows; });
  const started = Date.now();
  if (how === "click") {
    await page.click("#translate");
  } else if (how === "Control+Enter") {
    await page.keyboard.down("Control");
    await page.keyboard.press("Enter");
    await page.keyboard.up("Control");
  } else {
    await page.keyboard.press("Enter");
  }
  await page.waitForFunction(
      () => document.querySelector("#heatmap").dataset.rows ||
            document.querySelector("#status").classList.contains("error"),
      {timeout: 60000});
  const ms = Date.now() - started;
  return {
    ms,
    translation: await page.$eval("#translation", (el) => el.textContent),
    alternatives: await page.$$eval("output[id^=alternative-]", (els) => els.map((e) => e.textContent)),
    status: await page.$eval("#status", (el) => el.textContent),
  };
}

async function main() {
  const browser = await launch(chromium);
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    await page.setViewport({width: 900, height: 900});
    const response = await page.goto(`${url}/`, {waitUntil: "networkidle0"});
    check(response.status() === 200 && response.headers()["content-type"].startsWith("text/html"),
          "GET / is the page (text/html)", `${response.status()} ${response.headers()["content-type"]}`);
    await page.waitForFunction(() => document.querySelector("#pair").textContent !== "");
    const pair = await page.$eval("#pair", (el) => el.textContent);
    check(pair === "English → Spanish", "the pair comes from GET /languages", pair);
    const unlabelled = await page.$$eval("textarea, select, input",
        (els) => els.filter((e) => e.labels.length === 0).map((e) => e.id));
    check(unlabelled.length === 0, "every control has a label", unlabelled.join(" "));
    const live = await page.$$eval("[aria-live]", (els) => els.map((e) => e.id));
    check(live.includes("status") && live.includes("result"), "results and status are aria-live",
          live.join(" "));

    const alternatives = Number(await page.$eval("#alternatives", (el) => el.value));
    const body = (q) => ({q, source: "en", target: "es", format: "text", alternatives});
    for (const [i, sentence] of sentences.entries()) {
      const how = i % 2 === 0 ? "click" : "Enter";
      const shown = await translateOnPage(page, sentence, how);
      const want = await api("translate", body(sentence));
      check(shown.translation === want.translatedText,
            `"${sentence}" (${how === "click" ? "Translate clicked" : "Enter pressed"}): the page's translation equals POST /translate's`,
            `page "${shown.translation}", API "${want.translatedText}" (status ${shown.status})`);
      check(JSON.stringify(shown.alternatives) === JSON.stringify(want.alternatives || []),
            `"${sentence}": the page's ${alternatives} alternatives equal POST /translate's`,
            `${JSON.stringify(shown.alternatives)} vs ${JSON.stringify(want.alternatives)}`);
    }

    // The last sentence's heatmap, against POST /attention.
    const records = await api("attention", body(sentences[sentences.length - 1]));
    const record = records[0];
    const layers = record.layers.length;
    let table = await readTable(page);
    checkTable(table, record, record, average(record.layers[layers - 1]),
               `best translation, last layer, average over heads`);
    await page.select("#layer", "0");
    await page.select("#head", "1");
    table = await readTable(page);
    checkTable(table, record, record, record.layers[0][1], "layer 1, head 2");
    check(/layer 1, head 2/.test(table.caption), "the caption names layer and head", table.caption);
    // From the keyboard: focus the head select and pick the next head with the arrow key.
    await page.focus("#head");
    await page.keyboard.press("ArrowDown");
    table = await readTable(page);
    checkTable(table, record, record, record.layers[0][2], "ArrowDown on the head select: head 3");
    await page.select("#head", "average");
    table = await readTable(page);
    checkTable(table, record, record, average(record.layers[0]), "layer 1, average over heads");
    if (alternatives > 0) {
      await page.click("#choice-1");
      table = await readTable(page);
      const alt = record.alternatives[0];
      check(table.rank === 1, "choosing alternative 1 draws its attention", `rank ${table.rank}`);
      checkTable(table, record, alt, average(alt.layers[0]), "alternative 1, layer 1, average");
      await page.click("#choice-0");
    }
    // Two sentences, Ctrl+Enter: one record each, the sentence select switches between them.
    const two = "I like the red house. Where is the station?";
    const shownTwo = await translateOnPage(page, two, "Control+Enter");
    const wantTwo = await api("translate", body(two));
    check(shownTwo.translation === wantTwo.translatedText,
          "two sentences (Ctrl+Enter pressed): the page's translation equals POST /translate's",
          `page "${shownTwo.translation}", API "${wantTwo.translatedText}"`);
    const recordsTwo = await api("attention", body(two));
    const pieces = await page.$$eval("#piece option", (os) => os.map((o) => o.value));
    const pieceShown = await page.$eval("#piece-control", (el) => !el.hidden);
    check(recordsTwo.length === 2 && pieces.length === 2 && pieceShown,
          "two sentences: a sentence select with one entry per record", `${pieces} ${pieceShown}`);
    await page.select("#piece", "1");
    await page.select("#head", "0");
    table = await readTable(page);
    const lastLayer = Number(await page.$eval("#layer", (el) => el.value));
    checkTable(table, recordsTwo[1], recordsTwo[1], recordsTwo[1].layers[lastLayer][0],
               "second sentence, head 1");
    await page.select("#piece", "0");
    await page.select("#head", "average");

    // How long the page takes (a note, not a check: no timing assertions).
    const timed = await translateOnPage(page, sentences[sentences.length - 1], "click");
    console.log(`note: "${sentences[sentences.length - 1]}": translation and heatmap shown ` +
                `${timed.ms} ms after Translate was pressed`);

    await page.select("#layer", String(layers - 1));  // the page's first view, for the docs
    await page.screenshot({path: screenshot, fullPage: true});
    ok(`screenshot ${screenshot}`);

    // A phone: the page itself never scrolls sideways (the heatmap's frame does).
    await page.setViewport({width: 390, height: 844});  // isMobile would reload the page
    const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    check(overflow <= 0, "390 px wide (a phone): no sideways scrolling", `${overflow} px too wide`);
    await page.screenshot({path: screenshot.replace(/\.png$/, "_phone.png"), fullPage: true});

    check(errors.length === 0, "no script errors in the page", errors.join(" | "));

    // Translated, but too many sentences for /attention (11 × 3 > 32): the translation stays,
    // the error is shown, and no heatmap (not even the last one) is.
    await page.$eval("#source", (el) => { el.value = "Hello. ".repeat(11).trim(); });
    await page.click("#translate");
    await page.waitForFunction(() => document.querySelector("#status").classList.contains("error"),
                               {timeout: 60000});
    const state = await page.evaluate(() => ({
      status: document.querySelector("#status").textContent,
      translation: document.querySelector("#translation").textContent,
      heatmapHidden: document.querySelector("#attention").hidden,
    }));
    check(/attention cannot be shown/.test(state.status) && state.translation !== "" &&
          state.heatmapHidden,
          "/attention refused (11 sentences × 3): the translation shows, the error too, no heatmap",
          JSON.stringify(state));

    // An error is shown, not thrown: a text over the server's character limit.
    await page.setViewport({width: 1000, height: 900});
    await page.$eval("#source", (el) => { el.value = "a ".repeat(3000); });
    await page.click("#translate");
    await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Error"),
                               {timeout: 30000});
    const status = await page.$eval("#status", (el) => el.textContent);
    check(/characters/.test(status), "an over-long text: the server's error is shown", status);
  } finally {
    await browser.close();
  }
}

run(main, "the browser test");
