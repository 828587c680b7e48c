// Browser tests of what a phone operator tripped over (issue 22): long
// numbered lists, the desktop layout, the new-run form, the permission
// card's words, the runs list's previews and housekeeping, turning
// notifications on. Real Chromium against the scripted API
// (e2e/mock/server.mjs); screenshots go to docs/screenshots/. Needs
// `npm run build` first.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { launch, watch } from "./lib/browser.mjs";
import { text } from "./mock/server.mjs";
import { login, poll, shot } from "./lib/util.mjs";
import { mockSignedIn, mockSignOff } from "./lib/session.mjs";

let mock, browser, page, seen;

before(async () => {
  ({ mock, browser, page, seen } = await mockSignedIn());
});
after(() => mockSignOff({ browser, mock }));

const chat = (p = page) => p.locator('[data-testid="chat"]');

/** markersFit says, per ordered list in the chat, whether its widest number fits in its left padding. */
const markersFit = (p = page) =>
  chat(p).evaluate((pane) =>
    [...pane.querySelectorAll(".md ol")].map((ol) => {
      const lis = [...ol.children].filter((c) => c.tagName === "LI");
      const last = (Number(ol.getAttribute("start")) || 1) + lis.length - 1;
      const probe = document.createElement("span");
      probe.style.font = getComputedStyle(lis[0]).font;
      probe.style.position = "absolute";
      probe.textContent = `${last}. `;
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      const room = lis[0].getBoundingClientRect().left - Math.max(ol.getBoundingClientRect().left, pane.getBoundingClientRect().left);
      return { last, need: Math.round(need), room: Math.round(room) };
    }),
  );

const longList = (n, start = 1) => Array.from({ length: n }, (_, i) => `${start + i}. Step ${start + i}: change the file so the case is handled.`).join("\n");

describe("numbered lists", () => {
  test("numbers from 10 on keep every digit, on a phone and on a desktop", async () => {
    await mock.control("reset");
    await mock.control("put", {
      id: "r-list",
      title: "A long plan",
      msgs: [text(1, "user", "Write the plan as a list."), text(2, "assistant", `The plan:\n\n${longList(12)}\n\nAnd the tail:\n\n${longList(4, 98)}`)],
    });
    await page.goto(mock.url + "/runs/r-list");
    await chat().locator('[data-seq="2"] .md ol').first().waitFor();
    for (const m of await markersFit()) assert.ok(m.need <= m.room, `"${m.last}." needs ${m.need} px, has ${m.room}`);
    await chat().locator('[data-seq="2"] .md ol li').nth(9).scrollIntoViewIfNeeded();
    await shot(page, "md-long-list");

    const desk = await launch({ desktop: true });
    try {
      const dp = await desk.page();
      await login(dp, mock.url, "mock");
      await dp.goto(mock.url + "/runs/r-list");
      await chat(dp).locator('[data-seq="2"] .md ol').first().waitFor();
      for (const m of await markersFit(dp)) assert.ok(m.need <= m.room, `desktop: "${m.last}." needs ${m.need} px, has ${m.room}`);
    } finally {
      await desk.close();
    }
  });
});

describe("attention that forgets what you saw", () => {
  test("a finished turn opened on one device shows seen on another; the title stops counting it", async () => {
    await mock.control("reset");
    // Two runs of the same prompt in different folders, both finished.
    const said = [text(1, "user", "fix the tests"), text(2, "assistant", "Fixed: the fold test now passes.")];
    await mock.control("put", { id: "r-api", title: "fix the tests", msgs: said, run: { cwd: "/home/op/work/api", last_activity: new Date().toISOString() } });
    await mock.control("put", { id: "r-web", title: "fix the tests", msgs: said, run: { cwd: "/home/op/work/web", last_activity: new Date().toISOString() } });
    const other = await launch();
    try {
      const op = await other.page();
      await login(op, mock.url, "mock");
      const row = op.locator('[data-run="r-api"]');
      await row.waitFor();
      assert.equal(await row.getAttribute("data-attention"), "your_turn");
      const before = Number((await op.title()).match(/^\((\d+)\)/)?.[1] ?? 0);

      // This device opens the run.
      await page.goto(mock.url + "/runs/r-api");
      await chat().locator('[data-seq="2"]').waitFor();
      const t0 = Date.now();
      await poll(async () => (await row.getAttribute("data-attention")) === "seen", { what: "the other device's row to show seen" });
      console.log(`# seen on the other device ${Date.now() - t0} ms after the chat showed`);
      assert.deepEqual(await mock.control("seen"), ["r-api"], "reported once");
      await poll(async () => (await op.title()) === (before > 1 ? `(${before - 1}) lab` : "lab"), { what: "the title to count one less" });
      assert.match(await row.locator(".badge").textContent(), /seen/);
      // Seen runs sit below the working ones.
      const order = await op.locator("a[data-run]").evaluateAll((els) => els.map((e) => e.dataset.attention));
      assert.ok(order.indexOf("seen") > order.lastIndexOf("working"), `order: ${order}`);
      await op.locator('[data-run="r-web"]').scrollIntoViewIfNeeded();
      await shot(op, "runs-seen");

      // Something new while nobody looks: the next turn ends, and the run
      // wants the operator again.
      await page.goto(mock.url + "/");
      await mock.control("put", { id: "r-api", title: "fix the tests", msgs: [...said, text(3, "user", "and lint"), text(4, "assistant", "Lint is clean.")], run: { cwd: "/home/op/work/api" } });
      await poll(async () => (await row.getAttribute("data-attention")) === "your_turn", { what: "your turn again" });
    } finally {
      await other.close();
    }
  });

  test("stopping idle runs names each with its folder", async () => {
    await mock.control("reset");
    for (const dir of ["api", "web"]) await mock.control("put", { id: `r-${dir}`, title: "fix the tests", run: { cwd: `/home/op/work/${dir}` } });
    await page.goto(mock.url + "/");
    await page.locator('[data-action="stop-idle"]').click();
    const names = await page.locator("[data-stop-name]").evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.stopName, e.textContent])));
    assert.match(names["r-api"], /fix the tests\s*\/home\/op\/work\/api/);
    assert.match(names["r-web"], /fix the tests\s*\/home\/op\/work\/web/);
  });
});

describe("desktop: the runs list beside the open chat", () => {
  test("at 1280×800 the list stays on the left while runs open on the right; a phone shows one screen", async () => {
    await mock.control("reset");
    const desk = await launch({ desktop: true });
    try {
      const dp = await desk.page();
      watch(dp);
      await login(dp, mock.url, "mock");
      await dp.locator("[data-testid=no-run-open]").waitFor();
      const list = dp.locator(".split-list [data-run]").first();
      await list.waitFor();
      // Mark the list's DOM: it must survive opening runs.
      await dp.locator(".split-list .rows").evaluate((el) => (el.__kept = true));
      await dp.locator('.split-list [data-run="r-work"]').click();
      await chat(dp).locator('[data-seq="8"]').waitFor();
      const pane = await dp.locator(".split-list").evaluate((el) => el.getBoundingClientRect().toJSON());
      const inner = await dp.locator(".split-main .chat-inner").evaluate((el) => el.getBoundingClientRect().toJSON());
      assert.ok(pane.left === 0 && pane.width >= 340 && pane.width <= 420, `list pane ${JSON.stringify(pane)}`);
      assert.ok(inner.left >= pane.right && inner.width >= 600 && inner.width <= 820, `chat column ${JSON.stringify(inner)}`);
      assert.equal(await dp.locator('.split-list [data-run="r-work"]').getAttribute("aria-current"), "page");
      await dp.mouse.move(0, 0);
      await shot(dp, "desktop-split");

      await dp.locator('.split-list [data-run="r-single"]').click();
      await dp.locator("[data-card]").waitFor();
      assert.equal(await dp.locator(".split-list .rows").evaluate((el) => el.__kept === true), true, "the list was rebuilt");
      assert.equal(await dp.locator('.split-list [data-run="r-work"]').getAttribute("aria-current"), null);

      // Narrower than 1024 px: one screen at a time again.
      await dp.setViewportSize({ width: 900, height: 800 });
      await poll(async () => (await dp.locator(".split").count()) === 0, { what: "the split to go" });
      assert.equal(await dp.locator("[data-run]").count(), 0, "the runs list stayed beside the chat");
    } finally {
      await desk.close();
    }
    // The phone: a chat alone.
    await page.goto(mock.url + "/runs/r-work");
    await chat().locator('[data-seq="8"]').waitFor();
    assert.equal(await page.locator(".split, [data-run]").count(), 0);
  });
});

describe("new run on a phone", () => {
  test("Start on the first screen, the last folder prefilled, Default once, no Start without a prompt", async () => {
    await mock.control("reset");
    // A demo with many keywords, as lab demo has.
    const many = Array.from({ length: 16 }, (_, i) => ({ keyword: `lab:case${i}`, summary: `scenario ${i}` }));
    await mock.control("scenarios", { list: many });
    await page.evaluate(() => localStorage.removeItem("lab.new.cwd"));
    await page.goto(mock.url + "/new");
    await page.locator('[data-testid="scenarios"]').waitFor();
    const start = page.getByRole("button", { name: "Start" });
    const fold = await start.evaluate((el) => ({ bottom: el.getBoundingClientRect().bottom, h: window.innerHeight, top: document.querySelector("main.scroll").scrollTop }));
    assert.ok(fold.bottom <= fold.h && fold.top === 0, `Start at ${fold.bottom} of ${fold.h} px (scrolled ${fold.top})`);
    assert.equal(await page.locator('[data-keyword="lab:case0"]').isVisible(), false, "the keywords are not folded");

    // The provider's default mode is listed once, chosen.
    const modes = await page.locator('select[name="permission_mode"] option').allTextContents();
    assert.equal(modes.filter((m) => /default/i.test(m)).length, 0, `modes ${modes}`);
    assert.equal(await page.locator('select[name="permission_mode"]').inputValue(), "auto");
    assert.deepEqual(modes, ["Auto", "Manual", "Plan first"]);

    // This provider starts with a prompt.
    await page.locator('input[name="cwd"]').fill("/home/op/work/api");
    assert.equal(await start.isDisabled(), true, "Start with an empty prompt");
    assert.match(await page.locator("[data-needs-prompt]").textContent(), /starts with a first prompt/);
    await page.locator("header.bar h1").click(); // the folder's suggestions close
    await shot(page, "new-run-phone");
    await page.locator('textarea[name="prompt"]').fill("fix the tests");
    assert.equal(await start.isEnabled(), true);
    await start.click();
    await page.waitForURL(/\/runs\/r-new/);

    // Next time the same folder is there already.
    await page.goto(mock.url + "/new");
    await page.locator('input[name="cwd"]').waitFor();
    assert.equal(await page.locator('input[name="cwd"]').inputValue(), "/home/op/work/api");
  });
});

describe("new run on a slow connection", () => {
  test("the provider's modes arrive though the machine list named this lab before they did", async () => {
    await mock.control("reset");
    // The runs answer first, then the machine list (naming this lab),
    // then the providers: the form must not take the named lab for
    // another machine and drop the providers it asked for.
    await mock.control("delay", { path: "/peers", ms: 300 });
    await mock.control("delay", { path: "/providers", ms: 900 });
    await page.goto(mock.url + "/new");
    await poll(async () => (await page.locator('select[name="permission_mode"] option').count()) === 3, { what: "the provider's modes" });
    assert.deepEqual(await page.locator('select[name="permission_mode"] option').allTextContents(), ["Auto", "Manual", "Plan first"]);
    await mock.control("reset");
  });
});

describe("permission card", () => {
  test("names the file once, relative to the run's folder, with no key hints in its buttons", async () => {
    await mock.control("reset");
    const file = "/home/op/work/app/src/lab-edit.txt";
    const edit = {
      tool_id: "tu_edit",
      kind: "permission",
      answerable: true,
      outcome: null,
      permission: {
        tool: "Edit",
        title: "Edit file",
        question: "Do you want to make this edit to lab-edit.txt?",
        path: file,
        diff: `--- ${file}\n+++ ${file}\n@@ -1 +1 @@\n-hello\n+hello, edited`,
        options: [
          { label: "Yes", role: "allow_once" },
          { label: "Yes, allow all edits during this session (shift+tab)", role: "switch_mode" },
          { label: "No, and tell the agent what to do differently (esc)", role: "deny", feedback: true },
        ],
      },
    };
    await mock.control("put", { id: "r-perm", title: "lab:edit go", msgs: [text(1, "user", "lab:edit go")], pending: edit, state: "question", run: { cwd: "/home/op/work/app" } });
    await page.goto(mock.url + "/runs/r-perm");
    const card = page.locator("[data-card]");
    await card.waitFor();
    const said = await card.innerText();
    assert.equal(said.split("lab-edit.txt").length - 1, 2, `the file named other than once (and once in the CLI's question): ${said}`);
    assert.equal(await card.locator('[data-permission="path"]').textContent(), "src/lab-edit.txt");
    assert.doesNotMatch(said, /\/home\/op\/work\/app|shift\+tab|\(esc\)/);
    assert.match(await card.locator('[data-permission="diff"]').textContent(), /^@@ -1 \+1 @@\n-hello\n\+hello, edited/);
    await shot(page, "permission-card-phone");
  });
});

describe("headers on a phone", () => {
  /** clipped says whether the header's line under the title hides some of its text. */
  const clipped = () => page.locator(".bar-sub").evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
  test("the line under the title shows all of it at 390 px", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/");
    await page.locator("[data-run]").first().waitFor();
    assert.match(await page.locator(".bar-sub").textContent(), /^\d+ blocked · \d+ your turn$/);
    assert.equal(await clipped(), false, "the runs list's counts are cut");

    await mock.control("put", { id: "r-perm-bash", title: "lab:permission make a file", msgs: [text(1, "user", "lab:permission make a file")], run: { cwd: "/home/op/work/perm-bash-project", provider: "agent" } });
    await page.goto(mock.url + "/runs/r-perm-bash");
    await page.locator(".bar-sub [data-provider]").waitFor();
    await poll(async () => /CLI 2\.1\.332/.test(await page.locator(".bar-sub").textContent()), { what: "the version" });
    assert.match(await page.locator(".bar-sub").textContent(), /your turn.*Agent CLI · perm-bash-project · CLI 2\.1\.332/);
    assert.equal(await clipped(), false, "the chat header's line is cut");
  });
});

describe("runs list housekeeping and a first visit", () => {
  test("archiving ended runs says how many, and Undo brings them back", async () => {
    await mock.control("reset");
    await mock.control("put", { id: "r-old2", title: "Older run", state: "ended" });
    await page.goto(mock.url + "/");
    const archive = page.locator('[data-action="archive-ended"]');
    assert.equal(await archive.textContent(), "Archive ended runs (2)");
    await archive.click();
    const note = page.locator(".hk-note");
    await poll(async () => /^Archived 2 runs\./.test(await note.textContent()), { what: "the count archived" });
    await poll(async () => (await page.locator('[data-run="r-ended"], [data-run="r-old2"]').count()) === 0, { what: "the runs hidden" });
    await page.locator('[data-action="undo-archive"]').click();
    await poll(async () => (await page.locator('[data-run="r-ended"], [data-run="r-old2"]').count()) === 2, { what: "the runs back" });
    assert.match(await note.textContent(), /^Restored 2 runs\./);
    assert.equal(await page.locator('[data-action="undo-archive"]').count(), 0);
  });

  test("an empty runs list on a demo points to the keywords", async () => {
    await mock.control("reset");
    await mock.control("clear");
    await page.goto(mock.url + "/");
    const hint = page.locator("[data-demo-hint]");
    await hint.waitFor();
    assert.match(await hint.textContent(), /lab:single \(one single-select question\).*The New run screen lists all 3\./);
    await shot(page, "runs-empty-demo");
    await page.locator('[data-testid="no-runs"] a[href="/new"]').click();
    await page.waitForURL(mock.url + "/new");
    await page.locator('[data-testid="scenarios"]').waitFor(); // its request answered
    // Not a demo: no keywords to point to.
    await mock.control("scenarios", { list: null });
    const asked = page.waitForResponse((r) => r.url().endsWith("/api/v1/demo/scenarios"));
    await page.goto(mock.url + "/");
    assert.equal((await asked).status(), 404);
    await page.locator('[data-testid="no-runs"]').waitFor();
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
    assert.equal(await page.locator("[data-demo-hint]").count(), 0);
  });
});

describe("attach", () => {
  test("a session at a question says it waits for you, though its CLI says busy", async () => {
    await mock.control("reset");
    const session = (pid, over) => ({ provider: "agent", pid, session_id: `0000000${pid}-aaaa`, cwd: `/home/op/work/s${pid}`, title: `session ${pid}`, tmux: { socket: "/tmp/tmux", pane: "%1", session: "work" }, ...over });
    await mock.control("external", { list: [session(11, { status: "busy", pending: true }), session(12, { status: "busy" }), session(13, { status: "waiting", waiting_for: "permission" })] });
    await page.goto(mock.url + "/attach");
    const status = (pid) => page.locator(`[data-external="${pid}"] [data-status]`).textContent();
    await page.locator('[data-external="11"]').waitFor();
    assert.equal(await status(11), "waiting for you");
    assert.equal(await status(12), "busy");
    assert.equal(await status(13), "waiting for you: permission");
  });
});

describe("turning notifications on", () => {
  test("shows each step; a push service that never answers is named, and the button comes back", async () => {
    // Debian's Chromium has no push service: subscribing never settles.
    await mock.control("reset");
    await browser.context.grantPermissions(["notifications"], { origin: mock.url });
    await page.goto(mock.url + "/settings");
    const on = page.locator('[data-action="enable-push"]');
    await on.click();
    const step = page.locator("[data-push-step]");
    await poll(async () => /Subscribing with the browser's push service/.test((await step.textContent().catch(() => "")) ?? ""), { what: "the subscribe step" });
    assert.equal(await on.isDisabled(), true);
    await shot(page, "push-enabling");
    const err = page.locator(".settings .error[role=alert]");
    await err.waitFor({ timeout: 30000 });
    assert.match(await err.textContent(), /push service did not answer within 15 s/);
    assert.equal(await step.count(), 0, "the step stayed");
    assert.equal(await on.isEnabled(), true, "the button stayed greyed");
  });

  test("a denied permission says where to allow it; a dead device says why in words", async () => {
    const other = await launch();
    try {
      const op = await other.page();
      await login(op, mock.url, "mock");
      await op.evaluate(() => Notification.requestPermission()); // headless: dismissed or denied
      await op.goto(mock.url + "/settings");
      await op.locator('[data-action="enable-push"]').click();
      const err = op.locator(".settings .error[role=alert]");
      await err.waitFor();
      assert.match(await err.textContent(), /blocked for this site: allow them in the browser's site settings|permission prompt was dismissed: try again/);
      const dead = op.locator('[data-device="dev-old"] .error');
      assert.match(await dead.textContent(), /^the push service \(fcm\.googleapis\.com\) could not be found/);
    } finally {
      await other.close();
    }
  });
});

test("nothing opened a dialog or threw", () => {
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
});
