// End-to-end: the changes view in headless Chromium at 390×844 against
// the real lab server running the real Claude Code CLI (scripted model).
// A run in a git repository writes a file in its first turn and edits
// another in its second; the Changes sheet lists this turn's file and the
// whole run's, shows a diff with line numbers, and a comment on a diff
// line goes to the agent as a reply. A worktree run shows its branch, and
// once stopped its change is committed on the branch and the worktree
// removed. Screenshots land in docs/screenshots/.
//
//   make web build && LAB_BIN=$PWD/bin/lab node --test web/e2e/changes.test.mjs

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { signedIn, signOff } from "./lib/session.mjs";
import { poll, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 90000 };
let lab, browser, page, seen;

before(async () => {
  ({ lab, browser, page, seen } = await signedIn(password));
});
after(() => signOff({ browser, lab }));

const git = (cwd, ...args) =>
  execFileSync("git", args, {
    cwd,
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.org", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.org" },
  })
    .toString()
    .trim();

/** repo makes a git repository holding lab-edit.txt ("hello"), committed. */
function repo(name) {
  const dir = join(lab.work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "lab-edit.txt"), "hello\n");
  writeFileSync(join(dir, "README.md"), "# A small project\n");
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "add", "--all");
  git(dir, "commit", "--quiet", "-m", "start");
  return dir;
}

/** api calls lab's API from the page (its session cookie). */
const api = (path) =>
  page.evaluate(async (p) => {
    const r = await fetch("/api/v1" + p);
    return { status: r.status, body: await r.json() };
  }, path);

const runId = () => new URL(page.url()).pathname.split("/")[2];

async function startRun(cwd, prompt, { worktree = false } = {}) {
  await page.goto(lab.url + "/new");
  await page.locator('input[name="cwd"]').fill(cwd);
  await page.locator('textarea[name="prompt"]').fill(prompt);
  await page.locator('select[name="permission_mode"]').selectOption("acceptEdits");
  if (worktree) await page.locator('input[name="worktree"]').check();
  await page.getByRole("button", { name: "Start" }).click();
  await page.waitForURL(/\/runs\//);
  return runId();
}

/** turnDone waits for the scripted model's answer to a tool's result and the composer. */
async function turnDone(tool) {
  await page.locator('[data-testid="chat"]').getByText(`tool_result for ${tool}`).waitFor(slow);
  await page.locator('textarea[name="reply"]').waitFor(slow);
}

/** snapshotted waits until lab recorded where the run's turn n ended. */
async function snapshotted(id, n) {
  await poll(async () => (await api(`/runs/${id}/changes?since=turn`)).body.latest?.turn >= n, { ...slow, what: `the snapshot of turn ${n}` });
}

const files = () => page.locator('[data-testid="changed-files"] [data-file]').evaluateAll((els) => els.map((e) => e.getAttribute("data-file")));

test("a run's changes: this turn, the whole run, a diff, a comment sent as a reply", async () => {
  const cwd = repo("changes");
  const id = await startRun(cwd, "lab:write a file");
  await turnDone("Write");
  await snapshotted(id, 1);
  await page.locator('textarea[name="reply"]').fill("lab:edit the file");
  await page.locator('[data-action="send"]').click();
  await turnDone("Edit");
  await snapshotted(id, 2);

  // This turn: only the edit. Whole run: both files.
  await page.locator('[data-action="changes"]').click();
  const sheet = page.locator('[data-sheet="changes"]');
  await sheet.waitFor();
  await poll(async () => (await files()).join() === "lab-edit.txt", { what: "this turn's files" });
  assert.equal(await page.locator('[data-since="turn"]').getAttribute("aria-pressed"), "true");
  await page.locator('[data-since="start"]').click();
  await poll(async () => (await files()).join() === "lab-edit.txt,lab-write.txt", { what: "the whole run's files" });
  assert.match(await page.locator("[data-summary]").textContent(), /2 files changed since the run started · \+3 −1/);
  await shot(page, "changes-list");

  // A diff with line numbers; long lines wrap: nothing scrolls sideways.
  await page.locator('[data-file="lab-edit.txt"]').click();
  const diff = page.locator('[data-testid="diff"]');
  await diff.waitFor();
  const rows = await diff.locator("[data-diff-row]").evaluateAll((els) => els.map((e) => `${e.getAttribute("data-diff-row")} ${e.textContent}`));
  assert.deepEqual(rows, ["hunk @@ -1 +1 @@", "del 1−hello", "add 1+hello, edited"]);
  const widths = await page.evaluate(() => {
    const d = document.querySelector('[data-testid="diff"]');
    return { doc: document.documentElement.scrollWidth, view: innerWidth, diff: d.scrollWidth, diffBox: d.clientWidth };
  });
  assert.ok(widths.doc <= widths.view && widths.diff <= widths.diffBox, `something scrolls sideways: ${JSON.stringify(widths)}`);
  await shot(page, "changes-diff");

  // The file as it is now.
  await page.locator('[data-action="view-file"]').click();
  await page.locator('[data-testid="file"]').getByText("hello, edited").waitFor();
  await page.locator('[data-action="sheet-back"]').click();
  await diff.waitFor();

  // Tap the added line, comment: the reply quotes path:line and the line.
  await diff.locator('[data-diff-row="add"]').click();
  await page.locator('[data-action="comment"]').click();
  await page.locator('textarea[name="comment"]').fill("Say hello to the operator too.");
  await shot(page, "changes-comment");
  await page.locator('[data-action="send-comment"]').click();
  await sheet.waitFor({ state: "detached" });
  const chat = page.locator('[data-testid="chat"]');
  await chat.getByText("Say hello to the operator too.").first().waitFor();
  // The agent got it: the transcript holds the reply, and the scripted
  // model echoes it (the CLI hands a multi-line paste to the model inside
  // <pasted_content> tags; the chat shows it without them).
  const texts = async (role) => (await api(`/runs/${id}/messages?limit=20`)).body.messages.filter((m) => m.kind === "text" && m.role === role).map((m) => m.text);
  const want = "Comment on lab-edit.txt:1:\n> hello, edited\n\nSay hello to the operator too.";
  await poll(async () => (await texts("assistant")).some((t) => t.includes("You said: ") && t.includes("> hello, edited\n\nSay hello to the operator too.")), {
    ...slow,
    what: "the agent's answer to the comment",
  }).catch(async (e) => {
    console.log("# messages:", JSON.stringify((await api(`/runs/${id}/messages?limit=3`)).body.messages, null, 1));
    console.log("# pane:\n" + execFileSync("tmux", ["-S", join(lab.state, "tmux.sock"), "capture-pane", "-p", "-t", `=lab-${id}:`]).toString());
    throw e;
  });
  assert.equal((await texts("user")).at(-1).trim(), want);
  assert.deepEqual(seen.errors, [], "page errors");
});

test("a worktree run: its branch in the header, commit and removal once stopped", async () => {
  const cwd = repo("worktree");
  const id = await startRun(cwd, "lab:write in a worktree", { worktree: true });
  await poll(async () => /⎇ lab\/lab-write-in-a-worktree/.test(await page.locator("[data-branch-strip]").textContent()), { ...slow, what: "the branch under the header" });
  await turnDone("Write");
  await shot(page, "worktree-chat");
  await page.locator('[data-action="stop"]').click();
  await page.locator('[data-action="confirm-stop"]').click();
  await page.locator('[data-composer="ended"]').waitFor(slow);

  await page.locator('[data-action="changes"]').click();
  const panel = page.locator("[data-worktree]");
  await panel.waitFor();
  assert.equal(await panel.locator("[data-branch]").textContent(), "lab/lab-write-in-a-worktree");
  assert.match(await panel.locator("[data-merge]").textContent(), /git -C \S+ merge lab\/lab-write-in-a-worktree/);
  await poll(async () => (await files()).join() === "lab-write.txt", { what: "the worktree run's file" });
  assert.equal(await page.locator('input[name="commit_message"]').inputValue(), "lab:write in a worktree");
  await shot(page, "worktree");

  await page.locator('input[name="commit_message"]').fill("Add lab-write.txt");
  await page.locator('[data-action="commit"]').click();
  await poll(async () => /^Committed [0-9a-f]{12} on lab\/lab-write-in-a-worktree\.$/.test((await page.locator("[data-worktree-note]").textContent().catch(() => "")) ?? ""), {
    what: "the commit",
  });
  assert.equal(git(cwd, "log", "-1", "--format=%s", "lab/lab-write-in-a-worktree"), "Add lab-write.txt");
  await page.locator('[data-action="remove-worktree"]').click();
  await page.locator("[data-worktree]").getByText("The worktree was removed; the branch stays.").waitFor();
  assert.equal(git(cwd, "worktree", "list").split("\n").length, 1, "the worktree is still listed");
  assert.ok(git(cwd, "branch", "--list", "lab/*").includes("lab/lab-write-in-a-worktree"), "the branch went");
  const run = (await api(`/runs/${id}/changes?since=start`)).body;
  assert.equal(run.current, "snapshot");
  assert.deepEqual(seen.errors, [], "page errors");
});

test("a folder outside git says changes need a repository; a history session lists the files its calls wrote", async () => {
  const plain = join(lab.work, "plain");
  mkdirSync(plain, { recursive: true });
  await startRun(plain, "lab:write here");
  await turnDone("Write");
  await page.locator('[data-action="changes"]').click();
  await page.locator("[data-changes-error]").getByText(/changes need a git repository: .*plain is not in one/).waitFor();
  await page.locator('[data-action="sheet-back"]').click();

  // The first test's session, from history: no snapshots, the files its
  // tool calls wrote (the comment's reply wrote none).
  const first = (await api("/runs")).body.runs.find((r) => r.title === "lab:write a file");
  await page.goto(`${lab.url}/history/${encodeURIComponent(first.session_id)}`);
  await page.locator('[data-action="changes"]').click();
  const touched = page.locator('[data-testid="touched"] [data-file]');
  await poll(async () => (await touched.evaluateAll((els) => els.map((e) => e.getAttribute("data-file")))).join() === "lab-edit.txt,lab-write.txt", {
    what: "the history session's written files",
  });
  await touched.first().click();
  await page.locator('[data-testid="file"]').getByText("hello, edited").waitFor();
  assert.deepEqual(seen.errors, [], "page errors");
});
