// Measures how long a 10,000-message run's chat takes to open in Chromium
// against the scripted API (e2e/mock), for one or more builds of the app,
// interleaved round by round so load on the machine hits them alike.
// Two ways in, each with a cold HTTP cache:
//   list: the runs list is shown, then at once a tap on the run (its first
//         message drawn): the chat's code may still be on its way;
//   idle: the same once the page is idle (the chat's code preloaded), as
//         when a person reads the list before tapping;
//   deep: a fresh load of /runs/r-long (navigation start to the first
//         message drawn: the code, the fetch and the render).
// Usage: npm run build && node scripts/chat-open.mjs [--rounds 15] [dist...]
// (default: dist/). Prints p50/p95 per build and way in.
import { launch } from "../e2e/lib/browser.mjs";
import { login } from "../e2e/lib/util.mjs";
import { startMock } from "../e2e/mock/server.mjs";

const args = process.argv.slice(2);
let rounds = 15;
const dists = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--rounds") rounds = Number(args[++i]);
  else dists.push(args[i].endsWith("/") ? args[i] : args[i] + "/");
}
if (dists.length === 0) dists.push(new URL("../dist/", import.meta.url).pathname);

const builds = [];
for (const dist of dists) {
  const mock = await startMock({ dist });
  const browser = await launch();
  const page = await browser.page();
  await login(page, mock.url, "mock");
  const cdp = await page.context().newCDPSession(page);
  builds.push({ dist, mock, browser, page, cdp, list: [], idle: [], deep: [] });
}

const first = (page) => page.locator('[data-testid="chat"] [data-seq]').first().waitFor({ timeout: 60000 });

for (let r = 0; r < rounds; r++) {
  for (const b of builds) {
    const { page, cdp, mock } = b;
    await mock.control("reset");
    await cdp.send("Network.clearBrowserCache");
    await page.goto(mock.url + "/");
    await page.locator('[data-run="r-long"]').waitFor();
    const t0 = Date.now();
    await page.locator('[data-run="r-long"]').click();
    await first(page);
    b.list.push(Date.now() - t0);

    await cdp.send("Network.clearBrowserCache");
    await page.goto(mock.url + "/");
    await page.locator('[data-run="r-long"]').waitFor();
    await page.evaluate(() => new Promise((ok) => requestIdleCallback(() => setTimeout(ok, 200), { timeout: 3000 })));
    const t1 = Date.now();
    await page.locator('[data-run="r-long"]').click();
    await first(page);
    b.idle.push(Date.now() - t1);

    await cdp.send("Network.clearBrowserCache");
    await page.goto("about:blank");
    await page.goto(mock.url + "/runs/r-long", { waitUntil: "commit" });
    await first(page);
    b.deep.push(await page.evaluate(() => Math.round(performance.now())));
  }
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
for (const b of builds) {
  const f = (xs) => `p50 ${pct(xs, 50)} ms p95 ${pct(xs, 95)} ms`;
  console.log(`${b.dist}: list→chat at once ${f(b.list)}; after idle ${f(b.idle)}; deep link ${f(b.deep)} (${rounds} rounds)`);
  await b.browser.close();
  await b.mock.close();
}
