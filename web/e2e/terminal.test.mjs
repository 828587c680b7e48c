// End-to-end, at 390×844 in headless Chromium against the real lab server
// (`lab demo`, the pinned Claude Code CLI, the scripted model): a run's
// Terminal sheet shows its pane with the CLI's colours; read-only, keys
// typed on the page reach nothing; typing `/help` and Enter opens the
// CLI's help and the key bar's Esc closes it; and a screen lab does not
// understand (a synthetic one, drawn before the CLI starts by a wrapper
// this test puts in front of it) becomes an alert whose link opens the
// terminal, where a key resolves it. Screenshots land in docs/screenshots/
// with LAB_SCREENSHOTS=1, else in a temp folder.
//
//   make web build && LAB_BIN=$PWD/bin/lab node --test web/e2e/terminal.test.mjs

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launch, watch } from "./lib/browser.mjs";
import { startLab } from "./lib/lab.mjs";
import { poll, setup, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 90000 };
const repo = new URL("../../", import.meta.url).pathname;
const claudeBin = process.env.LAB_CLAUDE_BIN ?? join(repo, "tools/claude-2.1.332/node_modules/@anthropic-ai/claude-code/bin/claude.exe");
/** gateWord in a prompt makes the wrapper draw its screen before the CLI starts. */
const gateWord = "synthetic-gate";
let lab, browser, page, seen, wrapDir;

before(async () => {
  // The wrapper: a screen no CLI draws (so lab's pane parser cannot read
  // it), left only by Enter, then the real CLI with the same arguments.
  wrapDir = mkdtempSync(join(tmpdir(), "lab-e2e-wrap-"));
  const wrapper = join(wrapDir, "claude");
  writeFileSync(
    wrapper,
    `#!/bin/sh
case "$*" in
*${gateWord}*)
  printf '\\033[1;35mA screen lab has never seen\\033[0m\\n\\nPress Enter to go on.\\n'
  read -r _ ;;
esac
exec '${claudeBin}' "$@"
`,
  );
  chmodSync(wrapper, 0o755);
  const saved = process.env.LAB_CLAUDE_BIN;
  process.env.LAB_CLAUDE_BIN = wrapper;
  try {
    lab = await startLab();
  } finally {
    if (saved === undefined) delete process.env.LAB_CLAUDE_BIN;
    else process.env.LAB_CLAUDE_BIN = saved;
  }
  browser = await launch();
  page = await browser.page();
  page.setDefaultTimeout(60000);
  seen = watch(page);
  await setup(page, lab, password);
});
after(async () => {
  await browser?.close();
  await lab?.stop();
  if (wrapDir) rmSync(wrapDir, { recursive: true, force: true });
});

/** startRun starts a Claude Code run through the New run form and returns its id. */
async function startRun(name, prompt) {
  const cwd = join(lab.work, name);
  mkdirSync(cwd, { recursive: true });
  await page.goto(lab.url + "/new");
  await page.locator('input[name="cwd"]').fill(cwd);
  await page.locator('textarea[name="prompt"]').fill(prompt);
  await page.getByRole("button", { name: "Start" }).click();
  await page.waitForURL(/\/runs\//);
  return decodeURIComponent(new URL(page.url()).pathname.split("/")[2]);
}

/** pane reads the run's tmux pane as the CLI draws it, from lab's own tmux server. */
function pane(runId) {
  const r = spawnSync("tmux", ["-S", join(lab.state, "tmux.sock"), "capture-pane", "-p", "-t", `=lab-${runId}:`], { encoding: "utf8" });
  return r.stdout;
}

/** inputBox is the CLI's input line on a pane capture (its last line starting with the prompt glyph). */
const inputBox = (capture) => capture.split("\n").findLast((l) => l.startsWith("❯")) ?? "";

/** screen is the text the terminal sheet shows, row by row. */
const screen = () => page.locator("[data-terminal] .xterm-rows").innerText();

/** showsOnTerminal waits for the sheet's screen to contain text. */
async function showsOnTerminal(text, what = text) {
  await poll(async () => (await screen()).includes(text), { ...slow, what: `the terminal to show ${what}` }).catch(async (e) => {
    throw new Error(`${e.message}\nterminal:\n${await screen().catch(() => "")}\nlab log:\n${lab.log().slice(-3000)}`);
  });
}

describe("terminal", () => {
  test("a run's pane in colour; read-only sends nothing; /help typed and closed with Esc", async () => {
    const id = await startRun("term", "lab:text hello terminal");
    await page.locator('[data-testid="chat"] [data-seq]', { hasText: "You said: lab:text hello terminal" }).waitFor(slow);
    await page.locator('[data-action="terminal"]').click();
    await page.locator('[data-sheet="terminal"]').waitFor();
    await showsOnTerminal("hello terminal");
    // The CLI's colours come through as the emulator's styled cells.
    const coloured = await page.evaluate(
      () => [...document.querySelectorAll("[data-terminal] .xterm-rows span")].filter((s) => /xterm-fg-|xterm-bg-/.test(s.className) || s.style.color).length,
    );
    assert.ok(coloured > 0, "no coloured cell on the terminal");
    // It fits the phone: the pane keeps its width and the body pans, at a readable size.
    const fit = await page.evaluate(() => {
      const body = document.querySelector("[data-terminal-body]");
      const row = document.querySelector("[data-terminal] .xterm-rows > div");
      return { bodyWidth: body.clientWidth, scrollWidth: body.scrollWidth, font: parseFloat(getComputedStyle(row).fontSize) };
    });
    assert.ok(fit.font >= 10, `terminal font ${fit.font}px: unreadable`);
    assert.ok(fit.scrollWidth > fit.bodyWidth, `a 120-column pane at ${fit.font}px should pan sideways in ${fit.bodyWidth}px`);
    await shot(page, "terminal");

    // Read-only: keys typed on the page go nowhere.
    const inputs = [];
    page.on("request", (r) => r.url().includes("/terminal/input") && inputs.push(r.url()));
    const before = pane(id);
    await page.locator("[data-terminal]").click();
    await page.keyboard.type("not for the pane");
    await page.keyboard.press("Enter");
    await page.locator('[data-terminal-mode="read-only"]').waitFor();
    await new Promise((ok) => setTimeout(ok, 1500)); // long enough for keys to have shown
    assert.deepEqual(inputs, [], "read-only mode sent input");
    // The CLI's logo animates; its input box and everything it echoed stay as they were.
    const after = pane(id);
    assert.equal(inputBox(after), inputBox(before), "the CLI's input box changed in read-only mode");
    assert.ok(!after.includes("not for the pane"), "the keys reached the pane in read-only mode");

    // Typing mode: /help and Enter open the CLI's help; the key bar's Esc closes it.
    await page.locator('[data-action="terminal-type"]').click();
    await page.locator('[data-terminal-mode="typing"]').waitFor();
    await page.locator("[data-terminal-text]").fill("/help");
    await page.locator('[data-action="terminal-send"]').click();
    await showsOnTerminal("Shortcuts", "the CLI's help");
    assert.ok(pane(id).includes("Shortcuts"), "the pane does not show the help the terminal showed");
    await shot(page, "terminal-typing");
    await page.locator('[data-key="Escape"]').click();
    await poll(async () => !(await screen()).includes("Shortcuts"), { ...slow, what: "the help to close" });
    assert.ok(!pane(id).includes("Shortcuts"), "the pane still shows the help");
    assert.ok(inputs.length >= 2, `inputs sent: ${inputs.length}`);
    const log = lab.log();
    assert.match(log, /terminal input.*run=\S+.*operator="session [0-9a-f]+".*text_bytes=5/, "the typed input was not logged with its run, operator and length");
    assert.match(log, /terminal input.*keys=\[Escape\]/, "the key was not logged");
    await page.locator('[data-action="terminal-close"]').click();
    await page.locator('[data-sheet="terminal"]').waitFor({ state: "detached" });
    // Closing the sheet detaches lab's control client: no client is left on lab's tmux server.
    await poll(() => spawnSync("tmux", ["-S", join(lab.state, "tmux.sock"), "list-clients"], { encoding: "utf8" }).stdout.trim() === "", {
      ...slow,
      what: "the terminal's tmux client to detach",
    });
    assert.deepEqual(seen.errors, []);
  });

  test("a screen lab does not understand: alert, terminal, resolved by a key", async () => {
    await startRun("gate", `lab:text ${gateWord} passed`);
    const alert = page.locator("[data-alert]");
    await alert.waitFor(slow);
    assert.match(await alert.innerText(), /A screen lab has never seen/);
    await shot(page, "terminal-alert");
    await alert.locator('[data-action="alert-terminal"]').click();
    await showsOnTerminal("Press Enter to go on.");
    await page.locator('[data-action="terminal-type"]').click();
    await page.locator('[data-key="Enter"]').click();
    // The CLI starts with its prompt: the screen moves on, the alert goes.
    await showsOnTerminal(`You said: lab:text ${gateWord} passed`, "the CLI's answer");
    await page.locator('[data-action="terminal-close"]').click();
    await alert.waitFor({ state: "detached", ...slow });
    await page.locator('[data-testid="chat"] [data-seq]', { hasText: `You said: lab:text ${gateWord} passed` }).waitFor(slow);
    assert.deepEqual(seen.errors, []);
  });
});
