// End-to-end, at 390×844 in headless Chromium against the real lab server
// (`lab demo`, the pinned CLI, the scripted model): picking a folder in the
// new-run form, resuming an ended run and a history session, and attaching
// to sessions the operator started outside lab — one in a tmux server of
// the test's own (answered, replied to, detached while it keeps running),
// one on a plain terminal (read-only). Screenshots land in
// docs/screenshots/ with LAB_SCREENSHOTS=1 (`make screenshots`), else in a
// temp folder.
//
//   make web build && LAB_BIN=$PWD/bin/lab npm --prefix web run e2e

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { signedIn, signOff } from "./lib/session.mjs";
import { poll, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 90000 };
const repo = new URL("../../", import.meta.url).pathname;
const claudeBin = process.env.LAB_CLAUDE_BIN ?? join(repo, "tools/claude-2.1.332/node_modules/@anthropic-ai/claude-code/bin/claude.exe");
let lab, browser, page, seen, opsSocket;
const plainTerminals = [];

before(async () => {
  ({ lab, browser, page, seen } = await signedIn(password));
  opsSocket = join(lab.root, "ops.sock");
});
after(async () => {
  for (const p of plainTerminals) {
    try {
      process.kill(-p.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  if (opsSocket && existsSync(opsSocket)) spawnSync("tmux", ["-S", opsSocket, "kill-server"], { stdio: "ignore" });
  await signOff({ browser, lab });
});

const chat = () => page.locator('[data-testid="chat"]');

/** assistantSays waits for an assistant message containing text and returns its seq. */
async function assistantSays(text) {
  const row = chat().locator("[data-seq]", { hasText: text }).last();
  await row.waitFor(slow);
  return Number(await row.getAttribute("data-seq"));
}

/** seqOf returns the seq of the first message containing text. */
async function seqOf(text) {
  return Number(await chat().locator("[data-seq]", { hasText: text }).first().getAttribute("data-seq"));
}

/**
 * send types a reply in the composer and sends it, again while lab answers
 * that the CLI is not showing its prompt yet (a run that just started).
 */
async function send(text) {
  const box = page.locator('textarea[name="reply"]');
  await box.waitFor(slow);
  await box.fill(text);
  await poll(
    async () => {
      if ((await box.inputValue()) === "") return true;
      if (await page.locator('[data-action="send"]').isEnabled()) await page.locator('[data-action="send"]').click();
      return false;
    },
    { ...slow, interval: 1000, what: "the reply sent" },
  );
}

/** demoModelURL is the scripted model the demo's runs talk to (from its log). */
function demoModelURL() {
  const m = lab.log().match(/scripted model" url=(http:\/\/127\.0\.0\.1:\d+)/);
  assert.ok(m, "the demo logs its model URL");
  return m[1];
}

/** cliEnv is the environment of a CLI the operator starts by hand, against the demo's model. */
function cliEnv() {
  return {
    HOME: lab.claudeHome,
    ANTHROPIC_BASE_URL: demoModelURL(),
    ANTHROPIC_API_KEY: "sk-lab-demo-key",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
}

describe("folder picker", () => {
  test("recent and git folders first, walk down by tapping, start there", async () => {
    for (const d of ["projects/alpha/.git", "projects/beta", "projects/gamma/.git", "notes"]) mkdirSync(join(lab.home, d), { recursive: true });
    await page.goto(lab.url + "/new");
    const input = page.locator('input[name="cwd"]');
    await input.fill("");
    await input.pressSequentially("~/pro");
    const list = page.locator("#folder-list");
    await list.locator('[data-folder$="/projects"]').waitFor();
    await list.locator('[data-folder$="/projects"]').click();
    assert.equal(await input.inputValue(), "~/projects");
    // The list of the folder typed before may still show three rows: wait
    // for the rows under ~/projects, then check their order.
    const paths = () => list.locator("[data-folder] .folder-path").allTextContents();
    await poll(async () => {
      const rows = await paths();
      return rows.length === 3 && rows.every((r) => r.startsWith("~/projects/"));
    }, { what: "the three projects listed" });
    const names = await paths();
    assert.deepEqual(names, ["~/projects/alpha", "~/projects/gamma", "~/projects/beta"], "git repositories first");
    assert.equal(await list.locator('[data-folder$="/alpha"] .tag.git').count(), 1);
    await shot(page, "folder-picker");
    await list.locator('[data-folder$="/alpha"]').click();
    assert.equal(await input.inputValue(), "~/projects/alpha");
    await page.locator('textarea[name="prompt"]').fill("lab:text hello from alpha");
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/\/runs\//);
    await assistantSays("You said: lab:text hello from alpha");

    // Next time, alpha is a recent folder and comes first.
    await page.goto(lab.url + "/new");
    await input.fill("");
    await input.pressSequentially("~/projects/");
    await poll(async () => (await list.locator("[data-folder] .folder-path").first().textContent()) === "~/projects/alpha", { what: "alpha first" });
    assert.equal(await list.locator('[data-folder$="/alpha"] .tag', { hasText: "recent" }).count(), 1);

    // A folder that is not there is named in the error.
    await input.fill("~/projects/nope");
    await page.getByRole("button", { name: "Start" }).click();
    await page.locator(".error", { hasText: `the folder ~/projects/nope (${lab.home}/projects/nope) does not exist` }).waitFor();
  });
});

describe("resume", () => {
  test("an ended run continues in place: old messages above, new below, same seqs", async () => {
    const cwd = join(lab.work, "resume");
    mkdirSync(cwd, { recursive: true });
    await page.goto(lab.url + "/new");
    await page.locator('input[name="cwd"]').fill(cwd);
    await page.locator('textarea[name="prompt"]').fill("lab:text remember the word banana");
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/\/runs\//);
    const firstURL = page.url();
    const oldSeq = await assistantSays("You said: lab:text remember the word banana");
    await page.locator('[data-action="stop"]').click();
    await page.locator('[data-action="confirm-stop"]').click();
    await page.locator('[data-composer="ended"]').waitFor(slow);
    await page.locator('[data-action="resume"]').click();
    await page.waitForURL((u) => u.href !== firstURL && /\/runs\//.test(u.href));
    assert.equal(await assistantSays("You said: lab:text remember the word banana"), oldSeq, "the old answer kept its seq");
    await send("lab:text which word was it");
    const newSeq = await assistantSays("You said: lab:text which word was it");
    assert.ok(newSeq > oldSeq, `new answer at seq ${newSeq}, after the old one at ${oldSeq}`);
    assert.equal(await seqOf("You said: lab:text remember the word banana"), oldSeq);
    await shot(page, "resume");
    await page.locator('[data-action="stop"]').click();
    await page.locator('[data-action="confirm-stop"]').click();
    await page.locator('[data-composer="ended"]').waitFor(slow);
  });

  test("a history session resumes from its read-only chat", async () => {
    await page.goto(lab.url + "/history");
    await page.locator('input[name="q"]').fill("banana");
    await poll(async () => (await page.locator("[data-session]").count()) === 1, { what: "the banana session" });
    assert.equal(await page.locator("[data-live-run]").count(), 0, "no live run follows it now");
    await page.locator("[data-session]").click();
    await page.waitForURL(/\/history\//);
    const oldSeq = await assistantSays("You said: lab:text which word was it");
    await page.locator('[data-action="resume"]').click();
    await page.waitForURL(/\/runs\//);
    const runURL = page.url();
    assert.equal(await assistantSays("You said: lab:text which word was it"), oldSeq);
    await send("lab:text and the fruit");
    assert.ok((await assistantSays("You said: lab:text and the fruit")) > oldSeq);
    // History now leads to the live run.
    await page.goto(lab.url + "/history?q=banana");
    await page.locator("[data-live-run]").waitFor();
    await page.locator("[data-session]").click();
    await page.waitForURL(runURL);
    await page.locator('[data-action="stop"]').click();
    await page.locator('[data-action="confirm-stop"]').click();
    await page.locator('[data-composer="ended"]').waitFor(slow);
  });
});

describe("attach", () => {
  test("a session in the operator's tmux: listed, answered, replied to, detached while it runs on", async () => {
    const cwd = join(lab.work, "resume"); // trusted by the runs above
    const env = Object.entries(cliEnv()).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    const r = spawnSync("tmux", ["-S", opsSocket, "new-session", "-d", "-s", "ops", "-x", "120", "-y", "45", "-c", cwd, ...env, "--", "/bin/sh", "-c", `'${claudeBin}' -- 'lab:single pick for me'; exec sleep 600`]);
    assert.equal(r.status, 0, String(r.stderr));
    await page.goto(lab.url + "/attach");
    const row = page.locator("[data-external]", { has: page.locator("[data-pane]") });
    await row.waitFor(slow);
    assert.match(await row.textContent(), /tmux ops:%\d+/);
    await shot(page, "attach");
    await row.locator('[data-action="attach"]').click();
    await page.waitForURL(/\/runs\//);
    const card = page.locator("[data-card]");
    await card.waitFor(slow);
    await card.locator('[data-option="1"]').click();
    const id = await card.getAttribute("data-card");
    await page.locator(`[data-tool-id="${id}"]`).waitFor(slow);
    assert.match(await page.locator(`[data-tool-id="${id}"]`).textContent(), /PostgreSQL/);
    await send("lab:text hello from the phone");
    await assistantSays("You said: lab:text hello from the phone");
    await shot(page, "attached-chat");
    await page.locator('[data-action="stop"]', { hasText: "Detach" }).click();
    assert.match(await page.locator(".confirm").textContent(), /keeps running/);
    await page.locator('[data-action="confirm-stop"]').click();
    await page.locator('[data-composer="ended"]', { hasText: "Detached" }).waitFor(slow);
    // The CLI still runs in its pane, and is offered for attaching again.
    const panePID = String(spawnSync("tmux", ["-S", opsSocket, "list-panes", "-a", "-F", "#{pane_pid}"]).stdout).trim();
    const children = String(spawnSync("ps", ["-o", "comm=", "--ppid", panePID]).stdout);
    assert.match(children, /claude/, "the attached CLI was ended");
    await page.goto(lab.url + "/attach");
    await row.locator('[data-action="attach"]', { hasText: "Attach" }).waitFor(slow);
  });

  test("a session on a plain terminal is read-only", async () => {
    const cwd = join(lab.work, "resume");
    const p = spawn("script", ["-qfec", `'${claudeBin}' -- 'lab:text a plain terminal'`, "/dev/null"], {
      cwd,
      env: { PATH: process.env.PATH, TERM: "xterm-256color", ...cliEnv() },
      detached: true,
      stdio: "ignore",
    });
    plainTerminals.push(p);
    await page.goto(lab.url + "/attach");
    const row = page.locator("[data-external]", { has: page.locator("[data-readonly]") });
    await row.waitFor(slow);
    assert.match(await row.locator("[data-readonly]").textContent(), /does not run in tmux/);
    await row.locator('[data-action="attach"]').click();
    await page.waitForURL(/\/runs\//);
    await assistantSays("You said: lab:text a plain terminal");
    await page.locator('[data-composer="readonly"]').waitFor();
    assert.match(await page.locator('[data-composer="readonly"]').textContent(), /Read-only: it does not run in tmux/);
    assert.equal(await page.locator('textarea[name="reply"]').count(), 0, "a composer for a session lab cannot type into");
    await shot(page, "attach-readonly");
    await page.locator('[data-action="stop"]').click();
    await page.locator('[data-action="confirm-stop"]').click();
    await page.locator('[data-composer="ended"]').waitFor(slow);
    assert.doesNotThrow(() => process.kill(p.pid, 0), "detaching ended the plain terminal's process");
    assert.deepEqual(seen.errors, [], "page errors");
  });
});
