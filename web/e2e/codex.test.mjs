// End-to-end, at 390×844 in headless Chromium against the real lab server
// (`lab demo`) running the real Codex CLI: jailed in a network namespace
// with only loopback, talking to lab's scripted Responses API. The
// provider is chosen in the new-run form; the question card and the
// command approval card are the same cards a Claude Code run gets, and
// the run says which agent it is. Screenshots land in docs/screenshots/
// with LAB_SCREENSHOTS=1 (`make screenshots`), else in a temp folder.
//
//   make web build && LAB_BIN=$PWD/bin/lab npm --prefix web run e2e

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { signedIn, signOff } from "./lib/session.mjs";
import { poll, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 90000 };
let lab, browser, page, seen;

before(async () => {
  ({ lab, browser, page, seen } = await signedIn(password));
});
after(() => signOff({ browser, lab }));

const chat = () => page.locator('[data-testid="chat"]');

/** diagnose prints what the server said when a wait failed. */
async function diagnose(what) {
  const file = join(lab.root, `failed-${Date.now()}.png`);
  await page.screenshot({ path: file }).catch(() => {});
  console.log(`# ${what} failed at ${page.url()}; screenshot ${file}\n# lab log tail:\n${lab.log().slice(-3000)}`);
}

/** card waits for the pending card and returns it with its tool id. */
async function card() {
  const c = page.locator("[data-card]");
  await c.waitFor(slow).catch(async (e) => {
    await diagnose("waiting for the pending card");
    throw e;
  });
  await page.locator('[data-composer="waiting"]').waitFor();
  return { c, id: await c.getAttribute("data-card") };
}

describe("a Codex run in the demo", () => {
  test("chosen in the new-run form, with its own modes and demo keywords", async () => {
    await page.goto(lab.url + "/new");
    const tiles = page.locator(".provider-tile");
    await tiles.first().waitFor();
    assert.deepEqual(await tiles.locator(".provider-name").allTextContents(), ["Claude Code", "Codex"]);
    await page.locator('.provider-tile[data-provider="codex"]').click();
    await poll(async () => (await page.locator('.provider-tile.chosen[data-provider="codex"]').count()) === 1, { what: "the Codex tile chosen" });
    // Codex's modes and scenarios, not Claude Code's.
    const modes = await page.locator('select[name="permission_mode"] option').allTextContents();
    assert.ok(modes.includes("Workspace") && modes.includes("Plan first") && !modes.includes("Accept edits"), `modes ${modes}`);
    await page.locator('[data-testid="scenarios"] > summary').click(); // folded under one line
    await page.locator('[data-keyword="lab:edit"]').waitFor();
    assert.equal(await page.locator('[data-keyword="lab:markdown"]').count(), 0, "a Claude Code scenario offered for Codex");
    await shot(page, "codex-new-run");
  });

  test("a question card, answered; a command approval card, allowed", async () => {
    const cwd = join(lab.work, "greeter");
    mkdirSync(cwd, { recursive: true });
    await page.locator('input[name="cwd"]').fill(cwd);
    await page.locator('textarea[name="prompt"]').fill("lab:single pick a database");
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/\/runs\//);
    // The header names the agent.
    await page.locator('header [data-provider="codex"]').waitFor();
    assert.equal(await page.locator('header [data-provider="codex"]').textContent(), "Codex");

    let { c, id } = await card();
    assert.match(await c.locator(".card-head").textContent(), /^The agent asks/);
    assert.match(await c.textContent(), /Which database should we use\?/);
    await shot(page, "codex-question");
    await c.getByText("PostgreSQL").click();
    const summary = page.locator(`[data-tool-id="${id}"]`);
    await summary.waitFor(slow);
    assert.match(await summary.textContent(), /→\s*PostgreSQL/);

    // A command outside the sandbox: the CLI asks; the card shows it whole.
    const reply = page.locator('textarea[name="reply"]');
    await reply.waitFor(slow);
    await reply.fill("lab:permission make the probe");
    await page.getByRole("button", { name: "Send" }).click();
    ({ c, id } = await card());
    await c.locator('[data-permission="command"]').waitFor();
    assert.equal((await c.locator('[data-permission="command"]').textContent())?.trim(), "touch lab-permission-probe.txt && echo created");
    assert.deepEqual(await c.locator("[data-role]").evaluateAll((els) => els.map((e) => e.getAttribute("data-role"))), ["allow_once", "allow_always", "deny"]);
    assert.equal(await c.locator('input[type="text"]').count(), 0, "a feedback field for a denial that takes none");
    await shot(page, "codex-approval");
    await c.locator('[data-role="allow_once"]').click();
    await chat().getByText("tool output for exec_command").waitFor(slow);
    assert.equal(await page.locator("[data-card]").count(), 0, "the card stayed after the answer");
  });

  test("the runs list says which agent each run uses", async () => {
    await page.goto(lab.url + "/");
    const row = page.locator("[data-run]").first();
    await row.waitFor();
    assert.equal(await row.locator('[data-provider="codex"]').textContent(), "Codex");
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.dialogs, []);
  });
});
