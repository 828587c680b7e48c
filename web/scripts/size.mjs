// Measures what a first visit downloads before the app can render: the JS
// and CSS that dist/index.html references (scripts, stylesheets, module
// preloads), each gzipped at level 9 as the Go server serves them.
// Usage: npm run build && npm run size [-- --max-kb 80]
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url);
const html = readFileSync(new URL("index.html", dist), "utf8");
const refs = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let raw = 0;
let gz = 0;
for (const r of new Set(refs)) {
  const b = readFileSync(new URL(r, dist));
  const z = gzipSync(b, { level: 9 }).length;
  raw += b.length;
  gz += z;
  console.log(`${r}\t${(b.length / 1024).toFixed(1)} KB\t${(z / 1024).toFixed(1)} KB gzip`);
}
console.log(`initial JS+CSS: ${(raw / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzip`);
const i = process.argv.indexOf("--max-kb");
if (i > 0 && gz / 1024 > Number(process.argv[i + 1])) {
  console.error(`over budget: ${(gz / 1024).toFixed(1)} KB > ${process.argv[i + 1]} KB`);
  process.exit(1);
}
