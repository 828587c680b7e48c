// End-to-end: slash commands and the mode and model switch in headless
// Chromium at 390×844 against the real lab server running the real Claude
// Code CLI (scripted model). "/" opens the run's command menu (timed:
// keypress to the menu drawn), a project command is picked, filled and
// run with its text, /compact runs as the CLI's own command, slash text
// that names no command goes as a message, and the strip under the header
// switches the permission mode and the model, each confirmed by the CLI.
// Screenshots land in docs/screenshots/.
//
//   make web build && LAB_BIN=$PWD/bin/lab node --test web/e2e/steer.test.mjs

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { signedIn, signOff } from "./lib/session.mjs";
import { poll, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
let lab, browser, page, seen;

before(async () => {
  ({ lab, browser, page, seen } = await signedIn(password));
});
after(() => signOff({ browser, lab }));

const chat = () => page.locator('[data-testid="chat"]');
const box = () => page.locator('textarea[name="reply"]');
const menu = () => page.locator("[data-slash-menu]");

/** said waits until the chat shows text (the agent's answer, a note); on a timeout it says what the page showed. */
async function said(text) {
  try {
    await chat().getByText(text, { exact: false }).last().waitFor();
  } catch (e) {
    const composer = await page.locator("footer.composer").innerText().catch(() => "");
    const tail = (await chat().innerText().catch(() => "")).slice(-1500);
    throw new Error(`${e.message}\ncomposer: ${composer}\nchat ends:\n${tail}`);
  }
}

/** median and p95 of a list of numbers. */
function quantiles(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

test("slash commands and the mode and model switch", async () => {
  const cwd = join(lab.work, "steer");
  mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "commands", "probe.md"), "---\ndescription: Ask the agent for a probe reply\nargument-hint: <words>\n---\nReply with lab-probe-ok and the words $ARGUMENTS\n");
  await page.goto(lab.url + "/new");
  await page.locator('input[name="cwd"]').fill(cwd);
  await page.locator('textarea[name="prompt"]').fill("lab:text hello");
  await page.locator('select[name="permission_mode"]').selectOption("default");
  await page.getByRole("button", { name: "Start" }).click();
  await page.waitForURL(/\/runs\//);
  await said("You said: lab:text hello");

  // The menu, timed from the "/" keydown to the first frame that draws
  // its rows; twenty times, the first one included.
  await box().focus();
  await page.evaluate(() => {
    window.__slash = [];
    document.querySelector('textarea[name="reply"]').addEventListener(
      "keydown",
      (e) => {
        if (e.key !== "/") return;
        const t0 = performance.now();
        const drawn = () => (document.querySelector("[data-slash-menu] [data-command]") ? window.__slash.push(performance.now() - t0) : requestAnimationFrame(drawn));
        requestAnimationFrame(drawn);
      },
      true,
    );
  });
  for (let i = 0; i < 20; i++) {
    await page.keyboard.type("/");
    await poll(() => page.evaluate((n) => window.__slash.length > n, i), { what: `menu open #${i + 1}` });
    await page.keyboard.press("Backspace");
    await menu().waitFor({ state: "detached" });
  }
  const times = await page.evaluate(() => window.__slash);
  const q = quantiles(times);
  console.log(`slash menu open (keydown "/" to the menu drawn), ${times.length} runs: p50 ${q.p50.toFixed(1)} ms, p95 ${q.p95.toFixed(1)} ms, max ${q.max.toFixed(1)} ms; first ${times[0].toFixed(1)} ms`);
  assert.ok(times.length === 20);

  // The whole menu: the project's command first, built-ins after.
  await page.keyboard.type("/");
  const first = menu().locator("[data-command]").first();
  await first.waitFor();
  assert.equal(await first.getAttribute("data-command"), "probe");
  await shot(page, "slash-menu");

  // Narrowed by typing, picked, filled, run with its text.
  await page.keyboard.type("pro");
  await poll(async () => (await menu().locator("[data-command]").count()) < 5, { what: "the menu narrowed" });
  assert.equal(await first.getAttribute("data-command"), "probe");
  await menu().locator('[data-command="probe"]').click();
  assert.equal(await box().inputValue(), "/probe ");
  await page.keyboard.type("alpha");
  await menu().locator("[data-slash-route]").getByText("Send runs").waitFor();
  await page.locator('[data-action="send"]').click();
  await said("lab-probe-ok and the words alpha");
  assert.equal(await box().inputValue(), "");

  // /compact runs as the CLI's command; the chat shows it compacted.
  await box().fill("/compact");
  await menu().locator('[data-command="compact"]').first().waitFor();
  await page.locator('[data-action="send"]').click();
  await said("Conversation compacted");

  // Slash text that names no command goes as a message.
  await box().fill("/usr/bin is a folder");
  await box().dispatchEvent("input");
  await menu().locator("[data-slash-none]").waitFor();
  await page.locator('[data-action="send"]').click();
  // The model echoes it (after the records of the compaction before it).
  await poll(async () => ((await chat().locator(".msg.assistant").last().innerText()) ?? "").trimEnd().endsWith("/usr/bin is a folder"), {
    timeout: 60000,
    what: "the model's answer to the slash text",
  });

  // The mode: default → accept edits → plan, each confirmed by the CLI.
  const strip = page.locator("[data-settings-strip]");
  await poll(async () => (await strip.locator("[data-mode-now]").textContent()) === "Default", { what: "the strip showing the default mode" });
  await strip.click();
  const sheet = page.locator("[data-settings-sheet]");
  await sheet.waitFor();
  assert.equal(await sheet.locator('[data-mode="default"]').getAttribute("aria-checked"), "true");
  await shot(page, "mode-switch");
  await sheet.locator('[data-mode="acceptEdits"]').click();
  await sheet.waitFor({ state: "detached" });
  await poll(async () => (await strip.locator("[data-mode-now]").textContent()) === "Accept edits", { what: "accept edits on the strip" });
  await strip.click();
  await sheet.locator('[data-mode="plan"]').click();
  await sheet.waitFor({ state: "detached" });
  await poll(async () => (await strip.locator("[data-mode-now]").textContent()) === "Plan first", { what: "plan on the strip" });

  // The model, through the CLI's picker; the strip names it.
  await strip.click();
  await sheet.locator('[data-model="sonnet"]').click();
  await sheet.waitFor({ state: "detached" });
  await poll(async () => (await strip.locator("[data-model-now]").textContent()) === "Sonnet", { what: "sonnet on the strip" });
});
