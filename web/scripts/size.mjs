// Measures what a first visit downloads before the app can render, and
// fails when its JavaScript passes the budget. "Initial" is what
// dist/index.html references (scripts, stylesheets, module preloads) and
// every chunk those scripts import statically, recursively; chunks loaded
// by import() (the lazy screens, the markdown renderer) are listed apart.
// Each file is gzipped at level 9, as the Go server serves it.
// Usage: npm run build && node scripts/size.mjs [--max-js-kb 50]
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url);
const read = (r) => readFileSync(new URL(r, dist));
const html = read("index.html").toString("utf8");

// Static imports of a minified chunk: `import{a as b}from"./x.js"` and
// `import"./x.js"`, never `import("./x.js")`.
const staticImport = /\b(?:import|export)\s*(?:[^"'()]*?\bfrom\s*)?["']\.\/([^"']+\.js)["']/g;

const initial = new Set();
const todo = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
while (todo.length) {
  const r = todo.pop();
  if (initial.has(r)) continue;
  initial.add(r);
  if (r.endsWith(".js")) for (const m of read(r).toString("utf8").matchAll(staticImport)) todo.push("assets/" + m[1]);
}

const kb = (n) => (n / 1024).toFixed(1);
const size = (r) => {
  const b = read(r);
  return { raw: b.length, gz: gzipSync(b, { level: 9 }).length };
};
const total = { js: 0, css: 0 };
console.log("initial (what index.html loads):");
for (const r of [...initial].sort()) {
  const s = size(r);
  total[r.endsWith(".js") ? "js" : "css"] += s.gz;
  console.log(`  ${r}\t${kb(s.raw)} KB\t${kb(s.gz)} KB gzip`);
}
console.log("on demand:");
for (const f of readdirSync(new URL("assets/", dist)).sort()) {
  const r = "assets/" + f;
  if (initial.has(r) || !/\.(js|css)$/.test(f)) continue;
  const s = size(r);
  console.log(`  ${r}\t${kb(s.raw)} KB\t${kb(s.gz)} KB gzip`);
}
console.log(`initial JS ${kb(total.js)} KB gzip, CSS ${kb(total.css)} KB gzip`);
const i = process.argv.indexOf("--max-js-kb");
if (i > 0 && total.js / 1024 > Number(process.argv[i + 1])) {
  console.error(`initial JS over budget: ${kb(total.js)} KB gzip > ${process.argv[i + 1]} KB`);
  process.exit(1);
}
