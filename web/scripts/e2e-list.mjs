// Checks that every browser suite in e2e/ is in package.json's e2e
// scripts: a suite missing from them passes forever by never running (the
// three-lab peers suite once dropped out of the list in a merge).
//   node scripts/e2e-list.mjs
import { readdirSync, readFileSync } from "node:fs";

const root = new URL("../", import.meta.url).pathname;
const { scripts } = JSON.parse(readFileSync(root + "package.json", "utf8"));
const listed = new Set(
  ["e2e", "e2e:mock"].flatMap((name) => (scripts[name] ?? "").split(/\s+/).filter((w) => w.startsWith("e2e/"))),
);
const suites = readdirSync(root + "e2e")
  .filter((f) => f.endsWith(".test.mjs"))
  .map((f) => "e2e/" + f);
const missing = suites.filter((s) => !listed.has(s));
if (missing.length > 0) {
  console.error(`e2e suites that no npm e2e script runs: ${missing.join(", ")}; add them to package.json's "e2e" or "e2e:mock"`);
  process.exit(1);
}
console.log(`e2e: all ${suites.length} suites are listed`);
