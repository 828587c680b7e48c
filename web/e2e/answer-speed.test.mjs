// End-to-end: how long a form's answer takes in headless Chromium at
// 390×844 against the real lab server with the real Claude Code CLI
// (scripted model): from the tap on "Submit answers" to the card gone
// from the chat, timed inside the page (the click's event time, a
// mutation observer for the card's removal). Each card has been on
// screen a moment before it is answered, as an operator reads it. The
// answers must come back as the summary the transcript recorded.
//
//   make web build && LAB_BIN=$PWD/bin/lab node --test web/e2e/answer-speed.test.mjs
//
// LAB_E2E_ANSWER_ROUNDS (default 2) answers more forms, for the figure in
// docs/benchmarks.md; it is printed as a diagnostic.

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { launch, watch } from "./lib/browser.mjs";
import { startLab } from "./lib/lab.mjs";
import { setup, poll } from "./lib/util.mjs";

const slow = { timeout: 90000 };
const rounds = Number(process.env.LAB_E2E_ANSWER_ROUNDS ?? 2);
let lab, browser, page, seen;

before(async () => {
  [lab, browser] = await Promise.all([startLab(), launch()]);
  page = await browser.page();
  page.setDefaultTimeout(60000);
  seen = watch(page);
  await setup(page, lab, "correct horse battery staple");
});
after(async () => {
  await browser?.close();
  await lab?.stop();
});

/** tapToGone clicks button and resolves with the ms from the click's event to the card's removal. */
async function tapToGone(button, id) {
  await page.evaluate((tid) => {
    window.__gone = new Promise((resolve) => {
      let tapped = 0;
      document.addEventListener("click", (e) => (tapped = e.timeStamp), { capture: true, once: true });
      const obs = new MutationObserver(() => {
        if (tapped && !document.querySelector(`[data-card="${tid}"]`)) {
          obs.disconnect();
          resolve(performance.now() - tapped);
        }
      });
      obs.observe(document.body, { childList: true, subtree: true });
    });
  }, id);
  await button.click();
  return page.evaluate(() => window.__gone);
}

test(`a three-question form: tap on Submit answers → card gone (${rounds} rounds)`, { timeout: 900000 }, async () => {
  const took = [];
  for (let i = 0; i < rounds; i++) {
    const cwd = join(lab.work, `form-${i}`);
    mkdirSync(cwd, { recursive: true });
    await page.goto(lab.url + "/new");
    await page.locator('input[name="cwd"]').fill(cwd);
    await page.locator('textarea[name="prompt"]').fill("lab:form3 preferences");
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/\/runs\//);
    const card = page.locator("[data-card]");
    await card.waitFor(slow);
    const id = await card.getAttribute("data-card");
    await page.waitForTimeout(1000); // the operator reads the card
    await card.locator('[data-option="1"]').click(); // Color: second option, advances
    await card.locator('[data-option="0"]').click(); // Size: toggle first
    await card.getByRole("button", { name: "Next" }).click();
    await card.locator('[data-option="0"]').click(); // Crust: first, advances to review
    await card.locator(".review").waitFor();
    took.push(await tapToGone(card.getByRole("button", { name: "Submit answers" }), id));
    const summary = page.locator(`[data-tool-id="${id}"]`);
    await summary.waitFor(slow);
    await poll(async () => (await summary.locator(".qa").count()) === 3, { ...slow, what: "three answered lines" });
    const text = await summary.textContent();
    for (const a of ["Blue", "Small", "Thin"]) assert.match(text, new RegExp(a), `the summary lacks ${a}: ${text}`);
  }
  const sorted = [...took].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`# tap → card gone, three-question form, ${rounds} rounds: p50 ${Math.round(at(0.5))} ms, p95 ${Math.round(at(0.95))} ms, all ${took.map(Math.round).join(" ")}`);
  assert.deepEqual(seen.errors, [], "page errors");
});
