// End-to-end: the web app in headless Chromium against the real lab server
// running real Claude Code CLI runs in tmux, driven by the scripted model
// (fakeclaudeapi; a "lab:<scenario>" keyword in the prompt picks the
// script). Every answer shape goes through the UI and must come back as the
// answered Q→A summary read from the transcript. Screenshots at 390×844
// land in docs/screenshots/ with LAB_SCREENSHOTS=1 (`make screenshots`),
// else in a temp folder. See lib/lab.mjs for what the server must offer.
//
//   make web build && LAB_BIN=$PWD/bin/lab npm --prefix web run e2e

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launch, watch } from "./lib/browser.mjs";
import { startLab } from "./lib/lab.mjs";
import { longTranscript, xssTranscript } from "./lib/transcript.mjs";
import { login, poll, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 90000 };
let lab, browser, page, seen;

before(async () => {
  lab = await startLab();
  browser = await launch();
  page = await browser.page();
  page.setDefaultTimeout(60000);
  seen = watch(page);
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: lab.url });
});
after(async () => {
  await browser?.close();
  await lab?.stop();
});

const chat = () => page.locator('[data-testid="chat"]');

/** startRun fills the New run form and waits for the chat. */
async function startRun(name, prompt, mode = "") {
  const cwd = join(lab.work, name);
  mkdirSync(cwd, { recursive: true });
  await page.goto(lab.url + "/new");
  await page.locator('input[name="cwd"]').fill(cwd);
  await page.locator('textarea[name="prompt"]').fill(prompt);
  if (mode) await page.locator('select[name="permission_mode"]').selectOption(mode);
  await page.getByRole("button", { name: "Start" }).click();
  await page.waitForURL(/\/runs\//);
  return cwd;
}

/** diagnose prints what the page and the server showed when a wait failed. */
async function diagnose(what) {
  const file = join(lab.root, `failed-${Date.now()}.png`);
  await page.screenshot({ path: file }).catch(() => {});
  const api = await page
    .evaluate(async () => {
      const m = location.pathname.match(/^\/runs\/([^/]+)/);
      if (!m) return null;
      const r = await fetch(`/api/v1/runs/${m[1]}/messages?limit=5`);
      return await r.text();
    })
    .catch((e) => String(e));
  console.log(`# ${what} failed at ${page.url()}; screenshot ${file}\n# API: ${api}\n# lab log tail:\n${lab.log().slice(-3000)}`);
}

/** pendingCard waits for the card and checks it is placed once, in the stream. */
async function pendingCard() {
  const card = page.locator("[data-card]");
  await card.waitFor(slow).catch(async (e) => {
    await diagnose("waiting for the pending card");
    throw e;
  });
  const id = await card.getAttribute("data-card");
  assert.equal(await page.locator(`[data-card="${id}"]`).count(), 1, "card rendered twice");
  assert.equal(await page.locator(`[data-tool-id="${id}"]`).count(), 0, "the pending dialog also rendered as a summary");
  // Inline: inside the chat pane's stream, after the prompt, not in the
  // composer. (The hook spool can serve the dialog a moment before the
  // transcript's lines are folded, so wait for the prompt to show.)
  const where = () =>
    page.evaluate((tid) => {
      const el = document.querySelector(`[data-card="${tid}"]`);
      const rows = [...document.querySelectorAll('[data-testid="chat"] [data-seq], [data-testid="chat"] [data-card-row]')];
      return { inChat: !!el?.closest('[data-testid="chat"]'), index: rows.findIndex((r) => r.contains(el)), rows: rows.length };
    }, id);
  await poll(async () => {
    const w = await where();
    return w.inChat && w.index > 0;
  }, { ...slow, what: "card inline after the prompt" }).catch(async (e) => {
    throw new Error(`${e.message}: ${JSON.stringify(await where())}`);
  });
  await page.locator('[data-composer="waiting"]').waitFor();
  assert.equal(await page.locator('textarea[name="reply"]').count(), 0, "composer textarea shown while a dialog is pending");
  return { card, id };
}

/** answered waits for the summary that replaces the card, and the composer's return. */
async function answered(id) {
  const summary = page.locator(`[data-tool-id="${id}"]`);
  await summary.waitFor(slow);
  await poll(async () => (await page.locator(`[data-card="${id}"]`).count()) === 0, { ...slow, what: "card gone" });
  await page.locator('textarea[name="reply"]').waitFor(slow);
  return summary;
}

describe("first run", () => {
  test("setup with the token from the log, then the runs list", async () => {
    const token = await lab.setupToken();
    // The setup link from the log fills the token in.
    await page.goto(`${lab.url}/setup#token=${encodeURIComponent(token)}`);
    assert.equal(await page.locator('input[name="setup_token"]').inputValue(), token);
    assert.equal(new URL(page.url()).hash, "", "the token stayed in the address bar");
    // A wrong token is refused with the server's reason, not "wrong password".
    await page.locator('input[name="setup_token"]').fill("not-the-token");
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="confirm"]').fill(password);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.locator("[data-auth-error]").waitFor();
    assert.match(await page.locator("[data-auth-error]").textContent(), /^The setup token is unknown, used or expired/);
    await page.locator('input[name="setup_token"]').fill(token);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="confirm"]').fill(password);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("heading", { name: "Runs" }).waitFor();
  });
});

describe("answering every shape through the UI", () => {
  test("single-select: tap an option", async () => {
    await startRun("single", "lab:single pick a database");
    const { card, id } = await pendingCard();
    // The header names the CLI version the run reported; the pinned one
    // is verified, so no warning.
    await poll(async () => /CLI \d+\.\d+\.\d+/.test(await page.locator(".bar-sub").textContent()), { ...slow, what: "the CLI version in the header" });
    assert.equal(await page.locator(".cli-note").count(), 0, "the pinned CLI is flagged as unverified");
    await shot(page, "pending-card");
    await page.locator(".composer").scrollIntoViewIfNeeded();
    await shot(page, "collapsed-composer");
    await card.locator('[data-option="0"]').click();
    const s = await answered(id);
    assert.match(await s.textContent(), /→\s*SQLite/);
  });

  test("single-select: Other free text", async () => {
    await startRun("other", "lab:single pick a database");
    const { card, id } = await pendingCard();
    await card.locator('[data-option="other"]').click();
    await card.locator("textarea").fill("DuckDB please");
    await card.getByRole("button", { name: "Send" }).click();
    const s = await answered(id);
    assert.match(await s.textContent(), /DuckDB please/);
  });

  test("multi-select: checkboxes and submit", async () => {
    await startRun("multi", "lab:multi toppings");
    const { card, id } = await pendingCard();
    await card.locator('[data-option="1"]').click();
    await card.locator('[data-option="0"]').click();
    await card.getByRole("button", { name: "Submit" }).click();
    const s = await answered(id);
    assert.match(await s.textContent(), /Olives, Cheese/);
  });

  test("multi-question form: steps, review, submit", async () => {
    await startRun("form", "lab:form3 preferences");
    const { card, id } = await pendingCard();
    await card.locator('[data-option="1"]').click(); // Color: second option, advances
    await card.locator('[data-option="0"]').click(); // Size: toggle first
    await card.getByRole("button", { name: "Next" }).click();
    await card.locator('[data-option="0"]').click(); // Crust: first, advances to review
    await card.locator(".review").waitFor();
    await card.getByRole("button", { name: "Submit answers" }).click();
    const s = await answered(id);
    assert.equal(await s.locator(".qa").count(), 3, "one line per question");
    await s.scrollIntoViewIfNeeded();
    await shot(page, "answered-form");
  });

  test("plan: shown in full, approved", async () => {
    await startRun("plan", "lab:plan make a plan", "plan");
    const { card, id } = await pendingCard();
    const plan = await card.locator(".plan").textContent();
    assert.ok(plan.length > 40, `plan text too short: ${plan}`);
    await shot(page, "plan");
    // Plain words, the CLI's own as detail.
    assert.equal(await card.locator('[data-row="0"] .opt-desc').textContent(), "Yes, and use auto mode");
    assert.match(await card.locator('[data-row="0"] .opt-label').textContent(), /Approve, and let it carry on by itself/);
    await card.locator('[data-row="0"]').click();
    const s = await answered(id);
    // Which row approved it is read from the transcript (the CLI's
    // auto_mode attachment), not from what the browser clicked.
    await poll(async () => (await s.locator(".marker.approved").textContent()) === "approved · carries on by itself", { ...slow, what: "the approval mode in the summary" });
  });

  test("plan: a long one, approved by hand; the plan file's Write shows its content", async () => {
    await startRun("plan-long", "lab:markdown plan it", "plan");
    const { card, id } = await pendingCard();
    assert.match(await card.locator(".plan").textContent(), /Step 16: change part16\.go[\s\S]*Done when/);
    await card.locator('[data-row="1"]').click();
    const s = await answered(id);
    await poll(async () => (await s.locator(".marker.approved").textContent()) === "approved · asks before each edit", { ...slow, what: "the manual approval in the summary" });
    const write = chat().locator(".chip-tool").filter({ hasText: "Write" }).first();
    await write.locator("summary").click();
    assert.equal(await write.locator('[data-part="input"] .tool-label').textContent(), "Content");
    assert.match(await write.locator('[data-part="input"] pre').textContent(), /^# Plan: full-text search over history/);
    assert.match(await write.locator('[data-part="head"]').textContent(), /\.claude\/plans\/.+\.md$/);
  });

  test("plan: rejected with feedback", async () => {
    await startRun("plan-reject", "lab:plan make a plan", "plan");
    const { card, id } = await pendingCard();
    await card.locator("textarea").fill("Split it into smaller steps.");
    await card.getByRole("button", { name: "Reject with feedback" }).click();
    const s = page.locator(`[data-tool-id="${id}"]`);
    await s.locator(".marker.rejected").waitFor(slow);
    assert.match(await s.textContent(), /Split it into smaller steps\./);
  });
});

describe("permission prompts (permission mode manual)", () => {
  test("a command: shown whole, denied with what to do instead", async () => {
    await startRun("perm-bash", "lab:permission make a file", "manual");
    const { id } = await pendingCard();
    const card = page.locator(`[data-card="${id}"]`);
    assert.equal((await card.locator('[data-permission="command"]').textContent())?.trim(), "touch lab-permission-probe.txt && echo created");
    assert.deepEqual(await card.locator("[data-role]").evaluateAll((els) => els.map((e) => e.getAttribute("data-role"))), [
      "allow_once",
      "allow_always",
      "switch_mode",
      "deny",
    ]);
    // The composer collapses to the waiting note while the prompt waits.
    await page.locator('[data-composer="waiting"]').waitFor();
    await shot(page, "permission-bash");
    await card.locator('input[type="text"]').fill("Use mkdir instead");
    await card.getByRole("button", { name: "Deny with feedback" }).click();
    await chat().locator('[data-decision="denied"]').waitFor(slow);
    await chat().getByText("the user said:").first().waitFor(slow);
    assert.equal(await page.locator("[data-card]").count(), 0, "the card stayed after the answer");
  });

  test("a file change: the diff, allowed once", async () => {
    const cwd = join(lab.work, "perm-edit");
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, "lab-edit.txt"), "hello\n");
    await startRun("perm-edit", "lab:edit go", "manual");
    const { id } = await pendingCard();
    const diff = page.locator(`[data-card="${id}"] [data-permission="diff"]`);
    assert.match((await diff.textContent()) ?? "", /-hello\n\+hello, edited/);
    // The diff scrolls inside its block; the page itself never scrolls sideways.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    await shot(page, "permission-diff");
    await page.locator(`[data-card="${id}"] [data-role="allow_once"]`).click();
    await chat().locator('[data-decision="once"]').waitFor(slow);
  });
});

describe("demo and screens", () => {
  test("the new-run screen lists the demo's keywords", async () => {
    await page.goto(lab.url + "/new");
    await page.locator('[data-testid="scenarios"] > summary').click(); // folded under one line
    await page.locator('[data-keyword="lab:markdown"]').waitFor();
    assert.equal(await page.locator('[data-keyword="lab:plan"]').count(), 1);
    await page.locator('[data-keyword="lab:plan"]').click();
    assert.equal(await page.locator('select[name="permission_mode"]').inputValue(), "plan");
    assert.match(await page.locator('textarea[name="prompt"]').inputValue(), /^lab:plan /);
    await shot(page, "new-run");
  });

  test("markdown: code blocks, a table, copy", async () => {
    await startRun("markdown", "lab:markdown show me");
    const table = chat().locator(".md table");
    await table.waitFor(slow);
    assert.match(await table.textContent(), /SQLite[\s\S]*DuckDB/);
    assert.ok((await chat().locator(".md pre").count()) >= 3, "code blocks missing");
    const first = chat().locator(".md pre").first();
    await first.getByRole("button", { name: "Copy code" }).click();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^\/\/ Search returns the sessions/);
    await table.scrollIntoViewIfNeeded();
    await shot(page, "markdown");
  });

  test("a run id that does not exist: not found, no Stop, no Reply", async () => {
    await page.goto(lab.url + "/runs/no-such-run");
    await page.locator('[data-testid="not-found"]').waitFor();
    assert.equal(await page.locator('[data-action="stop"]').count(), 0);
    assert.equal(await page.locator('textarea[name="reply"]').count(), 0);
  });
});

describe("history", () => {
  test("search opens a read-only chat with the answered summary", async () => {
    await page.goto(lab.url + "/history");
    await page.locator('input[name="q"]').fill("/single");
    await poll(
      async () => {
        const subs = await page.locator("[data-session] .row-sub").allTextContents();
        return subs.length === 1 && subs[0].startsWith("single");
      },
      { what: "history filtered to the single project" },
    );
    // The run that answered it still runs: its row says so and opens that
    // run; the session's read-only chat is one step away.
    const row = page.locator("[data-session]").first();
    assert.equal(await row.locator("[data-live-run]").count(), 1, "the row does not show the live run");
    assert.match(await row.getAttribute("href"), /^\/runs\//, "a row of a session a live run follows opens that run");
    await page.goto(`${lab.url}/history/${await row.getAttribute("data-session")}`);
    await chat().locator("[data-tool-id]").first().waitFor(slow);
    assert.match(await chat().locator("[data-tool-id]").first().textContent(), /→/);
    assert.equal(await page.locator('[data-composer="readonly"]').count(), 1);
    assert.equal(await page.locator('[data-action="open-live"]').count(), 1, "no way to the live run from its session");
    assert.equal(await page.locator('textarea[name="reply"]').count(), 0);
  });

  test("search matches what was said, not only titles; rows count messages", async () => {
    await page.goto(lab.url + "/history");
    // Only the markdown run's reply says this; no title or folder does.
    await page.locator('input[name="q"]').fill("scroll container");
    // Until the search answers the list shows everything: wait for the
    // markdown run in it and the single-select run (which never said
    // those words) out of it.
    await poll(
      async () => {
        const subs = await page.locator("[data-session] .row-sub").allTextContents();
        return subs.some((t) => t.startsWith("markdown ·")) && !subs.some((t) => t.startsWith("single ·"));
      },
      { ...slow, what: "the markdown session found by its reply's words, and only sessions that said them" },
    );
    const subs = await page.locator("[data-session] .row-sub").allTextContents();
    assert.ok(subs.every((t) => /· \d+ messages? ·/.test(t)), `rows without a message count: ${subs}`);
    const titles = await page.locator("[data-session] .row-title").allTextContents();
    assert.ok(titles.every((t) => !/scroll container/i.test(t)), "matched by title, not by the conversation");
    await shot(page, "history-search-real");
  });

  test("script payloads in a transcript stay inert", async () => {
    const cwd = join(lab.work, "xss-project");
    mkdirSync(cwd, { recursive: true });
    const t = xssTranscript(cwd);
    t.write(lab.claudeHome);
    await page.goto(lab.url + "/history");
    await page.locator('input[name="q"]').fill("xss-project");
    await poll(async () => (await page.locator("[data-session]").count()) === 1, { what: "history filtered" });
    await page.locator(`[data-session="${t.sessionId}"]`).click();
    await chat().locator(".chip-tool").waitFor(slow);
    await page.locator(".chip-tool summary").click();
    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => window.__xss ?? null), null, "a payload ran");
    assert.equal(await chat().locator("script, img, iframe, svg").count(), 0, "a dangerous element was created");
    assert.match(await page.locator('.chip-tool [data-part="output"] pre').textContent(), /<script>window\.__xss='output'<\/script>/, "tool output not shown as text");
    assert.deepEqual(seen.dialogs, [], "a dialog opened");
  });

  test("a 10,000-message session: latest window, then scroll to its top (measured)", { timeout: 900000 }, async () => {
    const cwd = join(lab.work, "long-project");
    mkdirSync(cwd, { recursive: true });
    const t = longTranscript(cwd, 10000);
    t.write(lab.claudeHome);
    await page.goto(lab.url + "/history");
    await page.locator('input[name="q"]').fill("long-project");
    await poll(async () => (await page.locator("[data-session]").count()) === 1, { what: "history filtered" });
    const row = page.locator(`[data-session="${t.sessionId}"]`);
    await row.waitFor(slow);
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: "longtask", buffered: false });
    });
    const t0 = Date.now();
    await row.click();
    await chat().locator("[data-seq]").first().waitFor(slow);
    const openMs = Date.now() - t0;
    const first0 = Number(await chat().locator("[data-seq]").first().getAttribute("data-seq"));
    const t1 = Date.now();
    let olderMs = 0;
    await poll(
      async () => {
        await chat().evaluate((el) => el.scrollTo(0, 0));
        if (!olderMs && Number(await chat().locator("[data-seq]").first().getAttribute("data-seq")) < first0) olderMs = Date.now() - t1;
        return (await chat().locator('[data-seq="1"]').count()) === 1;
      },
      { timeout: 600000, interval: 50, what: "seq 1 after scrolling up" },
    );
    const topMs = Date.now() - t1;
    const long = await page.evaluate(() => window.__long);
    const rows = await chat().locator("[data-seq]").count();
    console.log(`# 10k session: latest window in ${openMs} ms; first older window ${olderMs} ms after reaching its top; scrolled to seq 1 in ${topMs} ms; ${rows} rows; long tasks: ${long.length}, max ${Math.round(Math.max(0, ...long))} ms`);
    assert.ok(rows <= 450, `DOM holds ${rows} rows; want a bounded slice`);
  });
});

describe("login lockout (last: it spends this address's attempts)", () => {
  test("a wrong password says so; then the lockout names its wait", async () => {
    const other = await launch();
    try {
      const p = await other.page();
      await p.goto(lab.url + "/");
      await p.locator('input[name="password"]').fill("not the password");
      await p.getByRole("button", { name: "Sign in" }).click();
      const err = p.locator("[data-auth-error]");
      await poll(async () => (await err.textContent().catch(() => "")) !== "", { what: "a login error" });
      assert.equal(await err.textContent(), "Wrong password.");
      // The server allows a few attempts, then answers 429 with Retry-After.
      await poll(
        async () => {
          if (await p.getByRole("button", { name: "Sign in" }).isEnabled()) await p.getByRole("button", { name: "Sign in" }).click();
          return /^Too many login attempts from your address\. Try again in \d+ s\.$/.test((await err.textContent()) ?? "");
        },
        { timeout: 60000, interval: 700, what: "the lockout message with its wait" },
      );
      assert.equal(await p.getByRole("button", { name: "Sign in" }).isDisabled(), true);
    } finally {
      await other.close();
    }
  });

  test("the operator's browser signed in before: it still gets in from the locked-out address", async () => {
    await page.goto(lab.url + "/");
    await page.locator('[data-action="logout"]').click();
    await page.locator('input[name="password"]').waitFor();
    await login(page, lab.url, password);
    assert.equal(await page.locator("[data-auth-error]").count(), 0);
  });
});
