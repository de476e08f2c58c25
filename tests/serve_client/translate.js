// Translates stdin's lines (concurrently, one request each) through the npm LibreTranslate
// client against the server at argv[2]; prints one translation per line, in input order.
// Used by tests/e2e_serve.sh. Exit 1 (message on stderr) when any request fails.
"use strict";
const { translate } = require("libretranslate");

async function main() {
  const apiurl = process.argv[2];
  const input = require("fs").readFileSync(0, "utf8");
  const lines = input.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const outputs = await Promise.all(
    lines.map((query) => translate({ query, source: "en", target: "es", apiurl })));
  for (const text of outputs) {
    if (typeof text !== "string") throw new Error("no translatedText in " + JSON.stringify(text));
    process.stdout.write(text + "\n");
  }
}

main().catch((err) => {
  process.stderr.write("error: " + err.message + "\n");
  process.exit(1);
});
