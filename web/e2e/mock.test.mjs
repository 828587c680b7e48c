// Browser tests of the web app against the scripted mock API: the client
// decisions of the seed, exercised in real Chromium, independent of CLI
// timing. Needs `npm run build` first (the suite serves dist/).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { poll } from "./lib/util.mjs";
import { mockSignedIn, mockSignOff } from "./lib/session.mjs";

let mock, browser, page, seen;

before(async () => {
  ({ mock, browser, page, seen } = await mockSignedIn());
});
after(() => mockSignOff({ browser, mock }));

const chat = () => page.locator('[data-testid="chat"]');
const open = async (path) => {
  await mock.control("reset");
  await page.goto(mock.url + path);
  await chat().locator("[data-seq]").first().waitFor();
};
const scrollTop = () => chat().evaluate((el) => el.scrollTop);
const cardTopInPane = () =>
  page.evaluate(() => {
    const pane = document.querySelector('[data-testid="chat"]');
    const card = pane.querySelector("[data-card]");
    return card.getBoundingClientRect().top - pane.getBoundingClientRect().top;
  });

describe("runs list", () => {
  test("shows attention badges and puts blocked runs first", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/");
    await page.locator("[data-run]").first().waitFor();
    const levels = await page.locator("a[data-run]").evaluateAll((els) => els.map((e) => e.dataset.attention));
    assert.equal(levels[0], "blocked");
    const rank = { blocked: 0, your_turn: 1, working: 2, idle: 3, ended: 4 };
    assert.deepEqual(levels, [...levels].sort((a, b) => rank[a] - rank[b]), `not sorted by attention: ${levels}`);
    assert.ok(levels.includes("working") && levels.includes("your_turn") && levels.includes("ended"), `levels: ${levels}`);
    assert.match(await page.locator(".bar-sub").textContent(), /\d+ blocked · \d+ your turn/);
    assert.match(await page.title(), /^\(\d+\) lab$/);
  });
  test("shows each run's CLI version and flags an unverified one", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/");
    await page.locator("[data-run]").first().waitFor();
    assert.match(await page.locator('[data-run="r-single"] .row-sub').textContent(), /CLI 2\.1\.332/);
    const flagged = await page.locator("[data-run] [data-cli-unverified]").evaluateAll((els) => els.map((e) => e.closest("[data-run]").dataset.run));
    assert.deepEqual(flagged, ["r-work"]);
    assert.match(await page.locator('[data-run="r-work"] [data-cli-unverified]').textContent(), /CLI 2\.1\.340/);
    assert.ok(await page.locator('[data-run="r-work"] [data-cli-unverified]').isVisible(), "the warning is not visible");

    // The chat says it too, in a note under the header; a verified run has none.
    await open("/runs/r-work");
    const note = page.locator(".cli-note");
    await note.waitFor();
    assert.match(await note.textContent(), /CLI 2\.1\.340 is not verified/);
    assert.match(await page.locator(".bar-sub").textContent(), /CLI 2\.1\.340/);
    await open("/runs/r-single");
    await poll(async () => /CLI 2\.1\.332/.test(await page.locator(".bar-sub").textContent()), { what: "the version in the chat header" });
    assert.equal(await page.locator(".cli-note").count(), 0);
  });
});

describe("chat placement", () => {
  test("the pending card sits at its dialog message's position, once", async () => {
    await open("/runs/r-single");
    await page.locator("[data-card]").waitFor();
    const order = await chat().locator("[data-seq], [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card ? "card" : e.dataset.seq));
    assert.deepEqual(order, ["1", "2", "3", "4", "card"]);
    assert.equal(await page.locator('[data-tool-id="tu_single"]').count(), 0, "stream copy of the pending dialog rendered too");
    assert.equal(await page.locator('[data-composer="waiting"]').count(), 1, "composer did not collapse to the waiting note");
    assert.equal(await page.locator('textarea[name="reply"]').count(), 0);
  });

  test("a pending dialog missing from the stream is appended", async () => {
    await open("/runs/r-multi");
    await page.locator("[data-card]").waitFor();
    const last = await chat().locator("[data-seq], [data-card]").last().getAttribute("data-card");
    assert.equal(last, "tu_multi");
  });

  test("a card moving from appended to its place keeps what was typed", async () => {
    await open("/runs/r-multi");
    const card = page.locator("[data-card]");
    await card.locator('[data-option="1"]').click();
    await card.locator('input[type="text"]').fill("half typed");
    await mock.control("foldPending", { run: "r-multi", before: 4 });
    await poll(
      async () => (await chat().locator("[data-seq], [data-card]").evaluateAll((els) => els.map((e) => (e.dataset.card ? "card" : e.dataset.seq)))).join() === "1,2,3,card,5",
      { what: "card moved to seq 4" },
    );
    assert.equal(await card.locator('input[type="text"]').inputValue(), "half typed");
    assert.equal(await card.locator('[data-option="1"] input').isChecked(), true);
  });

  test("state question without a dialog shows the locked note", async () => {
    await open("/runs/r-locked");
    await page.locator('[data-composer="locked"]').waitFor();
    assert.match(await page.locator('[data-composer="locked"]').textContent(), /terminal/);
    assert.equal(await page.locator('[data-action="interrupt"]').count(), 1);
  });

  test("tool chips expand to text output, errors styled", async () => {
    await open("/runs/r-work");
    const chip = page.locator(".chip-tool.s-error");
    await chip.locator("summary").click();
    assert.match(await chip.locator('[data-part="output"] pre').textContent(), /FAIL lab\/internal\/x/);
    assert.equal(await page.locator('[data-action="interrupt"]').count(), 1, "Interrupt while working");
  });
});

describe("answering", () => {
  test("single-select: one tap sends, the summary replaces the card, the composer returns", async () => {
    await open("/runs/r-single");
    await page.locator('[data-card] [data-option="0"]').click();
    await page.locator('[data-tool-id="tu_single"]').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), { tool_id: "tu_single", answers: [{ chosen: [0] }] });
    assert.match(await page.locator('[data-tool-id="tu_single"]').textContent(), /Which database should we use\?\s*→\s*SQLite/);
    assert.equal(await page.locator("[data-card]").count(), 0);
    await page.locator('textarea[name="reply"]').waitFor();
  });

  test("single-select Other: free text as typed", async () => {
    await open("/runs/r-single");
    await page.locator('[data-card] [data-option="other"]').click();
    await page.locator("[data-card] textarea").fill("DuckDB, embedded");
    await page.locator("[data-card]").getByRole("button", { name: "Send" }).click();
    await page.locator('[data-tool-id="tu_single"]').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), { tool_id: "tu_single", answers: [{ chosen: [], other_text: "DuckDB, embedded" }] });
    assert.match(await page.locator('[data-tool-id="tu_single"] .typed').textContent(), /DuckDB, embedded/);
  });

  test("multi-select: checkboxes in toggle order plus Other, then submit", async () => {
    await open("/runs/r-multi");
    const card = page.locator("[data-card]");
    await card.locator('[data-option="2"]').click();
    await card.locator('[data-option="0"]').click();
    await card.locator('input[type="text"]').fill("no anchovies");
    await card.getByRole("button", { name: "Submit" }).click();
    await page.locator('[data-tool-id="tu_multi"]').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), { tool_id: "tu_multi", answers: [{ chosen: [2, 0], other_text: "no anchovies" }] });
    assert.match(await page.locator('[data-tool-id="tu_multi"]').textContent(), /Mushrooms, Cheese, no anchovies/);
  });

  test("multi-question form: one step per question, review, submit", async () => {
    await open("/runs/r-form");
    const card = page.locator("[data-card]");
    await card.locator('[data-option="1"]').click(); // Blue, advances
    await card.locator('[data-option="0"]').click(); // S
    await card.locator('[data-option="2"]').click(); // L
    await card.getByRole("button", { name: "Next" }).click();
    await card.locator('[data-option="other"]').click();
    await card.locator("textarea").fill("by Friday");
    await card.getByRole("button", { name: "Next" }).click();
    await card.locator(".review").waitFor();
    assert.match(await card.locator(".review").textContent(), /Blue[\s\S]*S, L[\s\S]*by Friday/);
    await card.getByRole("button", { name: "Submit answers" }).click();
    await page.locator('[data-tool-id="tu_form"]').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), {
      tool_id: "tu_form",
      answers: [{ chosen: [1] }, { chosen: [0, 2] }, { chosen: [], other_text: "by Friday" }],
    });
    assert.equal(await page.locator('[data-tool-id="tu_form"] .qa').count(), 3, "one summary line per question");
  });

  test("plan: rendered in full, approve through a row", async () => {
    await open("/runs/r-plan");
    const card = page.locator("[data-card]");
    assert.match(await card.locator(".plan").textContent(), /Step 14[\s\S]*Risks[\s\S]*func Search/);
    await card.locator('[data-row="1"]').click();
    await page.locator('[data-tool-id="tu_plan"] .marker.approved').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), { tool_id: "tu_plan", option: 1 });
    assert.match(await page.locator('[data-tool-id="tu_plan"] .plan').textContent(), /Step 14/, "answered plan not in full");
  });

  test("plan: reject with feedback", async () => {
    await open("/runs/r-plan");
    const card = page.locator("[data-card]");
    await card.locator("textarea").fill("Split step 3 in two.");
    await card.getByRole("button", { name: "Reject with feedback" }).click();
    await page.locator('[data-tool-id="tu_plan"] .marker.rejected').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), { tool_id: "tu_plan", option: 2, feedback: "Split step 3 in two." });
    assert.match(await page.locator('[data-tool-id="tu_plan"] .marker.rejected').textContent(), /Split step 3 in two\./);
  });

  test("disabled while sending; a 409 says the question changed", async () => {
    await open("/runs/r-single");
    await mock.control("answerDelay", { ms: 600 });
    await mock.control("conflictNext");
    await page.locator('[data-card] [data-option="1"]').click();
    assert.equal(await page.locator('[data-card] [data-option="2"]').isDisabled(), true, "options enabled while sending");
    await page.getByText("This question changed").waitFor();
    await poll(async () => !(await page.locator('[data-card] [data-option="2"]').isDisabled()), { what: "card re-enabled" });
  });
});

describe("scrolling", () => {
  test("a new tool_id moves a following reader to the card's top", async () => {
    await open("/runs/r-long");
    await poll(async () => (await chat().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)) < 50, { what: "at bottom" });
    await mock.control("ask", { run: "r-long", shape: "plan", id: "tu_new" });
    await page.locator('[data-card="tu_new"]').waitFor();
    await poll(async () => Math.abs(await cardTopInPane()) < 20, { what: "card top at the pane top" });
  });

  test("a reader scrolled up is never moved", async () => {
    await open("/runs/r-long");
    await poll(async () => (await chat().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)) < 50, { what: "at bottom" });
    await chat().evaluate((el) => el.scrollBy(0, -1500));
    await page.waitForTimeout(200);
    const anchorBefore = await page.evaluate(() => {
      const pane = document.querySelector('[data-testid="chat"]');
      const top = pane.getBoundingClientRect().top;
      const el = [...pane.querySelectorAll("[data-seq]")].find((e) => e.getBoundingClientRect().bottom > top);
      return { seq: el.dataset.seq, y: el.getBoundingClientRect().top };
    });
    await mock.control("append", { run: "r-long", n: 5 });
    await mock.control("ask", { run: "r-long", shape: "single", id: "tu_up" });
    await page.locator('[data-card="tu_up"]').waitFor();
    await page.waitForTimeout(300);
    const anchorAfter = await page.evaluate((seq) => {
      const el = document.querySelector(`[data-testid="chat"] [data-seq="${seq}"]`);
      return el.getBoundingClientRect().top;
    }, anchorBefore.seq);
    assert.ok(Math.abs(anchorAfter - anchorBefore.y) < 2, `reader moved by ${anchorAfter - anchorBefore.y}px`);
  });

  test("a seen tool_id does not move the reader", async () => {
    await open("/runs/r-single");
    await page.locator("[data-card]").waitFor();
    await chat().evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(100);
    const y = await scrollTop();
    await mock.control("append", { run: "r-single", n: 0 });
    await page.waitForTimeout(400);
    assert.equal(await scrollTop(), y);
  });

  test("scroll-up pages older windows in without jumping", async () => {
    await open("/runs/r-long");
    const firstSeq = async () => Number(await chat().locator("[data-seq]").first().getAttribute("data-seq"));
    const start = await firstSeq();
    assert.equal(start, 9901, "latest window of 100");
    const seqAtTop = async () =>
      page.evaluate(() => {
        const pane = document.querySelector('[data-testid="chat"]');
        const top = pane.getBoundingClientRect().top;
        const el = [...pane.querySelectorAll("[data-seq]")].find((e) => e.getBoundingClientRect().bottom > top + 1);
        return { seq: el.dataset.seq, y: el.getBoundingClientRect().top - top };
      });
    await chat().evaluate((el) => el.scrollTo(0, 300));
    const a = await seqAtTop();
    await poll(async () => (await firstSeq()) < start, { what: "older window" });
    await page.waitForTimeout(150);
    const b = await page.evaluate((seq) => {
      const pane = document.querySelector('[data-testid="chat"]');
      return pane.querySelector(`[data-seq="${seq}"]`).getBoundingClientRect().top - pane.getBoundingClientRect().top;
    }, a.seq);
    assert.ok(Math.abs(b - a.y) < 4, `row ${a.seq} jumped from ${a.y} to ${b}`);
  });
});

describe("history and safety", () => {
  test("history search opens a read-only chat with answered summaries", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/history");
    await page.locator('input[name="q"]').fill("storage");
    await poll(async () => (await page.locator("[data-session]").count()) === 1, { what: "filtered list" });
    await page.locator('[data-session="s-plain"]').click();
    await page.locator('[data-tool-id="tu_old"]').waitFor();
    assert.match(await page.locator('[data-tool-id="tu_old"]').textContent(), /→\s*SQLite/);
    assert.match(await page.locator('[data-tool-id="tu_old2"]').textContent(), /dismissed/);
    assert.equal(await page.locator('textarea[name="reply"]').count(), 0);
    assert.equal(await page.locator('[data-composer="readonly"]').count(), 1);
  });

  test("script payloads in text, tool output and notes stay inert", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/history");
    await page.locator('[data-session="s-xss"]').click();
    await chat().locator('[data-seq="5"]').waitFor();
    await page.locator(".chip-tool summary").click();
    await page.locator(".thinking summary").click();
    await page.locator(".msg.note").hover();
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.__xss ?? null), null, "a payload ran");
    assert.equal(await chat().locator("script, img, iframe, svg").count(), 0, "a dangerous element was created");
    assert.match(await page.locator('.chip-tool [data-part="output"] pre').textContent(), /<script>window.__xss=1<\/script>/, "tool output not shown as text");
    assert.deepEqual(seen.dialogs, []);
  });
});

describe("code split", () => {
  test("a chat opened by a deep link never shows its markdown unrendered", async () => {
    // The chat's code and the markdown renderer are chunks of their own:
    // the chat must wait for both rather than draw raw text first.
    await mock.control("reset");
    const fresh = await browser.newPage();
    try {
      await fresh.addInitScript(() => {
        window.__raw = [];
        new MutationObserver(() => {
          for (const md of document.querySelectorAll("[data-seq] .md")) if (/\*\*\d+\*\*/.test(md.textContent)) window.__raw.push(md.textContent);
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      await fresh.goto(mock.url + "/runs/r-long");
      await fresh.locator('[data-testid="chat"] [data-seq] .md strong').first().waitFor();
      assert.deepEqual(await fresh.evaluate(() => window.__raw), [], "markdown shown as raw text");
    } finally {
      await fresh.close();
    }
  });
});

describe("long sessions (measured, not asserted on time)", () => {
  test("10,000 messages: latest window, then scroll to the top", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/");
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: "longtask" });
    });
    const t0 = Date.now();
    await page.locator('[data-run="r-long"]').click();
    await chat().locator("[data-seq]").first().waitFor();
    const openMs = Date.now() - t0;
    const t1 = Date.now();
    await poll(
      async () => {
        await chat().evaluate((el) => el.scrollTo(0, 0));
        return (await chat().locator('[data-seq="1"]').count()) === 1;
      },
      { timeout: 120000, interval: 50, what: "seq 1" },
    );
    const topMs = Date.now() - t1;
    const long = await page.evaluate(() => window.__long);
    const rows = await chat().locator("[data-seq]").count();
    console.log(`# mock 10k: latest window ${openMs} ms; to seq 1 ${topMs} ms; ${rows} rows; long tasks ${long.length}, max ${Math.round(Math.max(0, ...long))} ms`);
    assert.ok(rows <= 450, `DOM holds ${rows} rows; want a bounded slice`);
    // Scrolling down re-renders from memory; Jump returns to the live end.
    await chat().evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await poll(async () => Number(await chat().locator("[data-seq]").last().getAttribute("data-seq")) > 300, { what: "rows below re-rendered" });
    await page.getByRole("button", { name: "Jump to latest" }).click();
    await chat().locator('[data-seq="10000"]').waitFor();
    await poll(async () => (await chat().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)) < 50, { what: "back at bottom" });
  });
});
