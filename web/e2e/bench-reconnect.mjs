// A measurement, not a test: how long after the network comes back the
// chat shows what happened while it was away. Each cycle takes the page
// off the network (the browser's offline mode) with its connections to
// lab, through a proxy of this script's own, either cut (a phone that
// lost its network: "cut") or silent (a network or proxy that keeps them
// open and carries nothing: "silent"), has the run answer a reply
// meanwhile (sent through lab's API directly), waits out the time away,
// gives the network back and times until the answer shows. Runs against
// any lab binary with the web app built in, so a build from before a
// change can be measured the same way:
//
//   make web build && LAB_BIN=$PWD/bin/lab node web/e2e/bench-reconnect.mjs [cut|silent] [cycles] [seconds away]

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./lib/browser.mjs";
import { startLab } from "./lib/lab.mjs";
import { startProxy } from "./lib/proxy.mjs";
import { poll, setup } from "./lib/util.mjs";

const mode = process.argv[2] ?? "cut";
const cycles = Number(process.argv[3] ?? 10);
const awayMs = Number(process.argv[4] ?? 20) * 1000;
const lab = await startLab();
const proxy = await startProxy(lab.port);
const browser = await launch();
try {
  const page = await browser.page();
  await setup(page, lab, "correct horse battery staple", proxy.url);
  const api = lab.client("bench");
  const cwd = join(lab.work, "bench");
  mkdirSync(cwd, { recursive: true });
  const run = (await api("POST", "/runs", { cwd, prompt: "lab:text hello" })).body;
  await page.goto(`${proxy.url}/runs/${run.id}`);
  const said = (t) => page.locator(".msg.assistant[data-seq]", { hasText: t });
  await said("You said: lab:text hello").waitFor({ timeout: 90000 });
  const took = [];
  let early = 0;
  for (let i = 1; i <= cycles; i++) {
    await browser.context.setOffline(true);
    if (mode === "silent") proxy.silence();
    else proxy.cut();
    const away = Date.now();
    const text = `lab:text cycle ${i}`;
    await api("POST", `/runs/${run.id}/reply`, { text });
    await poll(async () => (await api("GET", `/runs/${run.id}/messages`)).body.messages.some((m) => m.role === "assistant" && m.text?.includes(text)), { timeout: 90000, what: "the answer" });
    await page.waitForTimeout(Math.max(0, awayMs - (Date.now() - away)));
    // A page that shows the answer while still away was never out of
    // touch: the cycle measures nothing.
    if ((await said(`You said: ${text}`).count()) > 0) {
      early++;
      console.log(`cycle ${i}: the answer showed while the page was offline`);
      await browser.context.setOffline(false);
      continue;
    }
    await browser.context.setOffline(false);
    const back = Date.now();
    await said(`You said: ${text}`).waitFor({ timeout: 180000 });
    took.push(Date.now() - back);
    console.log(`cycle ${i}: ${took[took.length - 1]} ms`);
  }
  if (early) console.log(`${early} of ${cycles} cycles showed the answer while offline`);
  const s = [...took].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  console.log(`${mode}: network back → view current after ${awayMs / 1000} s away: n=${s.length} p50=${q(0.5)} ms p95=${q(0.95)} ms max=${s[s.length - 1]} ms`);
} finally {
  await browser.close();
  await proxy.close();
  await lab.stop();
}
