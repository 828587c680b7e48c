// End-to-end: live text while the agent works (issue 19), at 390×844 in
// headless Chromium against the real lab server, with both real CLIs
// streaming the scripted models' slow text (lab:slow, a word every
// 100 ms). The test reads the run's tmux pane itself and notes when each
// of a few words is first drawn there, and when the chat first shows it:
// the chat must follow within a second. Then the transcript's message
// replaces the live text at the same place, and nothing shows twice.
//
//   make web build && LAB_BIN=$PWD/bin/lab node --test web/e2e/livetext.test.mjs

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { signedIn } from "./lib/session.mjs";
import { shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 120000 };
let lab, browser, page, seen;
const lags = { claude: [], codex: [] };

before(async () => {
  ({ lab, browser, page, seen } = await signedIn(password));
});
after(async () => {
  for (const [p, l] of Object.entries(lags)) {
    if (!l.length) continue;
    const s = [...l].sort((a, b) => a - b);
    const q = (x) => s[Math.min(s.length - 1, Math.ceil(x * s.length) - 1)];
    console.log(`${p}: pane drawn → chat shows: n=${s.length} p50=${q(0.5)} ms p95=${q(0.95)} ms max=${s[s.length - 1]} ms`);
  }
  await browser?.close();
  await lab?.stop();
});

const chat = () => page.locator('[data-testid="chat"]');

/** pane is the run's screen as tmux has it now. */
function pane(id) {
  return execFileSync("tmux", ["-S", join(lab.state, "tmux.sock"), "capture-pane", "-p", "-t", `=lab-${id}:`], { encoding: "utf8" });
}

/** startRun starts a run from the API of the page's session and opens its chat. */
async function startRun(provider, name, prompt) {
  const cwd = join(lab.work, name);
  mkdirSync(cwd, { recursive: true });
  const r = await page.evaluate(
    async ({ cwd, prompt, provider }) => {
      const st = await (await fetch("/api/v1/auth/status")).json();
      const res = await fetch("/api/v1/runs", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": st.csrf_token ?? "" },
        body: JSON.stringify({ cwd, prompt, provider }),
      });
      return { status: res.status, body: await res.json() };
    },
    { cwd, prompt, provider },
  );
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await page.goto(`${lab.url}/runs/${r.body.id}`);
  await chat().waitFor();
  return r.body.id;
}

describe("live text while the agent works", () => {
  for (const provider of ["claude", "codex"]) {
    test(`${provider}: the words grow in the chat as the CLI draws them, then the message takes their place`, slow, async () => {
      const id = await startRun(provider, `live-${provider}`, "lab:slow tell me");
      const words = ["word12", "word24", "word36", "word48", "word60", "word72"];
      const onPane = {};
      const inChat = {};
      let lastLive = null; // the live text's place, just before the message came
      let shown = false;
      const deadline = Date.now() + 100000;
      for (;;) {
        const screen = pane(id);
        const now = Date.now();
        const live = await page.evaluate(() => {
          const el = document.querySelector("[data-live]");
          const msg = [...document.querySelectorAll('[data-testid="chat"] .msg.assistant[data-seq]')].find((m) => m.textContent.includes("finished."));
          return { text: el?.querySelector(".live-text")?.textContent ?? "", top: el ? el.offsetTop : -1, msgTop: msg ? msg.offsetTop : -1 };
        });
        for (const w of words) {
          const re = new RegExp(`\\b${w}\\b`);
          if (!onPane[w] && re.test(screen)) onPane[w] = now;
          if (!inChat[w] && re.test(live.text)) inChat[w] = now;
        }
        if (live.top >= 0) lastLive = live;
        if (!shown && inChat.word24 && provider === "claude") {
          shown = true;
          await shot(page, "live-text");
        }
        if (live.msgTop >= 0) {
          // The message landed: the live text is gone in the same render,
          // and the message sits where it was.
          assert.equal(live.top, -1, "the live text stayed beside the message that replaced it");
          assert.ok(lastLive, "no live text was ever shown");
          assert.ok(Math.abs(live.msgTop - lastLive.top) <= 4, `the message is at ${live.msgTop} px, the live text was at ${lastLive.top} px; want the same place`);
          break;
        }
        assert.ok(Date.now() < deadline, `the turn did not end (pane words ${Object.keys(onPane)}, chat words ${Object.keys(inChat)})`);
        await new Promise((ok) => setTimeout(ok, 100));
      }
      for (const w of words) {
        assert.ok(onPane[w], `${w} never seen on the pane`);
        assert.ok(inChat[w], `${w} was drawn on the pane but never shown live in the chat`);
        const lag = inChat[w] - onPane[w];
        lags[provider].push(Math.max(0, lag));
        assert.ok(lag <= 1000, `${w} showed in the chat ${lag} ms after the CLI drew it; want within 1 s`);
      }
      // Nothing twice: one message holds the words, and no live text.
      await page.locator("[data-working]").waitFor({ state: "detached", timeout: 30000 });
      assert.equal(await chat().locator(".msg", { hasText: /\bword50\b/ }).count(), 1);
      assert.equal(await page.locator("[data-live]").count(), 0);
      assert.deepEqual(seen.errors, []);
    });
  }

  test("codex: a turn interrupted while it streams keeps what was shown, as lab's copy", slow, async () => {
    // Codex records no partial text: what the chat showed stays, marked.
    const id = await startRun("codex", "live-interrupt", "lab:slow tell me");
    const live = page.locator("[data-live] .live-text");
    await page.waitForFunction(() => /\bword30\b/.test(document.querySelector("[data-live] .live-text")?.textContent ?? ""), null, { timeout: 90000 });
    const shown = await live.textContent();
    await page.locator('[data-action="interrupt"]').click();
    const partial = page.locator("[data-partial]");
    await partial.waitFor({ timeout: 30000 });
    const kept = await partial.locator(".live-text").textContent();
    assert.ok(kept.replace(/\s+/g, " ").startsWith(shown.replace(/\s+/g, " ")), `kept ${JSON.stringify(kept)}; want what was shown, ${JSON.stringify(shown)}`);
    assert.match(await partial.textContent(), /Interrupted: what the CLI showed, which it did not record/);
    await chat().getByText("Interrupted", { exact: true }).waitFor();
    assert.equal(await page.locator("[data-live]").count(), 0);
    await shot(page, "live-text-interrupted");
  });
});
