// Browser tests of the screens a newcomer meets first (issue 14): login
// and setup messages, the runs list offline, headers, not found, the form
// review, plan labels, tool chips and copying, history search, the jump
// button, Interrupt next to a card, and the desktop layout and keys. Real
// Chromium against the scripted API (e2e/mock/server.mjs); screenshots at
// 390×844 go to docs/screenshots/ with LAB_SCREENSHOTS=1 (`make
// screenshots`), else to a temp folder. Needs `npm run build` first.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { launch, watch } from "./lib/browser.mjs";
import { login, poll, shot } from "./lib/util.mjs";
import { mockSignedIn, mockSignOff } from "./lib/session.mjs";

let mock, browser, page, seen;

before(async () => {
  ({ mock, browser, page, seen } = await mockSignedIn((b, m) => b.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: m.url })));
});
after(() => mockSignOff({ browser, mock }));

const chat = () => page.locator('[data-testid="chat"]');
const open = async (path) => {
  await mock.control("reset");
  await page.goto(mock.url + path);
  await chat().locator("[data-seq]").first().waitFor();
};
const box = (loc) => loc.evaluate((el) => el.getBoundingClientRect().toJSON());
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

describe("login and setup say what the server said", () => {
  test("a wrong password, then a lockout with its wait", async () => {
    await mock.control("reset");
    await mock.control("logout");
    await page.goto(mock.url + "/");
    await page.locator('input[name="password"]').fill("not it");
    await page.getByRole("button", { name: "Sign in" }).click();
    await poll(async () => (await page.locator("[data-auth-error]").textContent()) === "Wrong password.", { what: "the wrong-password message" });

    await mock.control("lockout", { secs: 30 });
    await page.getByRole("button", { name: "Sign in" }).click();
    const err = page.locator("[data-auth-error]");
    await poll(async () => /^Too many login attempts from your address\. Try again in (29|30) s\.$/.test(await err.textContent()), { what: "the lockout wait" });
    assert.equal(await page.getByRole("button", { name: "Sign in" }).isDisabled(), true, "sign in enabled during the lockout");
    await shot(page, "login-lockout");
    // The wait counts down.
    const first = Number((await err.textContent()).match(/in (\d+) s/)[1]);
    await poll(async () => Number((await err.textContent()).match(/in (\d+) s/)?.[1] ?? 99) < first, { timeout: 5000, what: "the countdown" });

    await mock.control("lockout", { secs: 0 });
    await page.reload();
    await login(page, mock.url, "mock");
  });

  test("a used setup token shows the server's reason, not 'wrong password'", async () => {
    const token = await mock.control("setupToken");
    await page.goto(`${mock.url}/setup#token=wrong-${token}`);
    // The mock's password stays "mock", so later logins still work.
    await page.locator('input[name="password"]').fill("mock");
    await page.locator('input[name="confirm"]').fill("mock");
    await page.getByRole("button", { name: "Set password" }).click();
    const err = page.locator("[data-auth-error]");
    await poll(async () => /^The setup token is unknown, used or expired/.test((await err.textContent()) ?? ""), { what: "the setup token message" });
    assert.doesNotMatch(await err.textContent(), /wrong password/i);
    await page.locator('input[name="setup_token"]').fill(token);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("heading", { name: "Runs" }).waitFor();
  });
});

describe("runs list", () => {
  test("offline: an inset error with Retry, and no endless Loading", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/history");
    await page.locator("[data-session]").first().waitFor();
    await page.route("**/api/v1/runs", (r) => r.abort());
    await page.getByRole("link", { name: "Back" }).click();
    const notice = page.locator("[data-list-error]");
    await notice.waitFor();
    assert.match(await notice.textContent(), /Offline: cannot reach the lab server/);
    const b = await box(notice);
    assert.ok(b.left >= 12 && b.right <= 390 - 12, `error box ${b.left}..${b.right} touches the screen edge`);
    assert.equal(await page.getByText("Loading…").count(), 0, "Loading… shown with the error");
    await shot(page, "runs-offline");
    await page.unroute("**/api/v1/runs");
    await notice.getByRole("button", { name: "Retry" }).click();
    await page.locator("[data-run]").first().waitFor();
    assert.equal(await notice.count(), 0);
  });

  test("Sign out is quieter than New run", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/");
    await page.locator("[data-run]").first().waitFor();
    const style = (loc) =>
      loc.evaluate((el) => {
        const cs = getComputedStyle(el);
        return { bg: cs.backgroundColor, size: parseFloat(cs.fontSize), weight: Number(cs.fontWeight), cls: el.className };
      });
    const newRun = await style(page.getByRole("link", { name: "New" }));
    const out = await style(page.locator('[data-action="logout"]'));
    assert.notEqual(newRun.bg, "rgba(0, 0, 0, 0)", "New run is not filled");
    assert.equal(out.bg, "rgba(0, 0, 0, 0)", "Sign out is a filled button");
    assert.ok(out.size < newRun.size && !/\bbtn\b/.test(out.cls), `Sign out ${JSON.stringify(out)} as prominent as New ${JSON.stringify(newRun)}`);
    const lastRow = await box(page.locator("[data-run]").last());
    assert.ok((await box(page.locator('[data-action="logout"]'))).top >= lastRow.bottom, "Sign out above the runs");
  });
});

describe("chat screens", () => {
  test("offline in a chat: one quiet banner, the state marked as last known, the reply waits and goes once lab answers", async () => {
    await open("/runs/r-work");
    await page.route("**/api/v1/**", (r) => r.abort());
    await page.locator('textarea[name="reply"]').fill("are you there?");
    await page.locator('[data-action="send"]').click();
    // Not lost, not left in the composer either: it waits, shown.
    const waiting = page.locator('[data-outbox="waiting"]', { hasText: "are you there?" });
    await waiting.waitFor();
    assert.equal(await page.locator('textarea[name="reply"]').inputValue(), "");
    await page.locator("[data-banner]").waitFor();
    assert.match(await page.locator("[data-banner]").textContent(), /Offline/);
    assert.equal(await page.getByText(/cannot reach the lab server/).count(), 1, "the same error twice");
    // One quiet banner: the chat's own, or the connection's, never both.
    assert.equal(await page.locator("[data-banner], [data-conn-banner]").count(), 1, "two banners at once");
    assert.equal(await page.locator('[data-banner][role="alert"]').count(), 0, "an alarm where a quiet note would do");
    // What shows (the "working" badge) is only the last known.
    await page.locator(".chat-screen.stale").waitFor();
    await shot(page, "chat-offline");
    await page.unroute("**/api/v1/**");
    await waiting.waitFor({ state: "detached", timeout: 20000 });
    await chat().locator(".msg.user[data-seq]", { hasText: "are you there?" }).waitFor();
    assert.equal(await chat().getByText("are you there?").count(), 1, "the reply shows twice");
    await page.locator(".chat-screen.stale").waitFor({ state: "detached" });
    assert.equal(await page.locator("[data-banner]").count(), 0, "the banner outlived the outage");
  });

  test("a long title wraps to two lines and opens whole on a tap", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/runs/r-title");
    const h1 = page.locator('[data-testid="title"]');
    await poll(async () => /health endpoint/.test(await h1.textContent()), { what: "the run's title" });
    const m = () => h1.evaluate((el) => ({ h: el.clientHeight, sh: el.scrollHeight, lh: parseFloat(getComputedStyle(el).lineHeight), title: el.title }));
    const clamped = await m();
    assert.ok(clamped.h >= 1.9 * clamped.lh, `title shows ${clamped.h}px: less than two lines of ${clamped.lh}px`);
    assert.ok(clamped.sh > clamped.h + 2, "a title this long should be clamped");
    assert.match(clamped.title, /with examples$/, "the full title is not in its tooltip");
    await shot(page, "run-header");
    await h1.click();
    const whole = await m();
    assert.ok(whole.sh <= whole.h + 1 && whole.h > clamped.h, `after a tap: ${JSON.stringify(whole)}`);
  });

  test("a run without a prompt is not named by its folder twice", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/runs/r-bare");
    const h1 = page.locator('[data-testid="title"]');
    await poll(async () => (await h1.textContent()) === "myproject", { what: "the folder as the title" });
    const sub = await page.locator(".bar-sub").textContent();
    assert.match(sub, /\/home\/op\/work\/myproject/);
  });

  test("a run or session that does not exist shows not found, with no Stop or Reply", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/runs/no-such-run");
    await page.locator('[data-testid="not-found"]').waitFor();
    assert.match(await page.locator('[data-testid="not-found"]').textContent(), /no run no-such-run/);
    assert.equal(await page.locator('[data-action="stop"]').count(), 0);
    assert.equal(await page.locator('textarea[name="reply"], .composer').count(), 0);
    await shot(page, "not-found");
    await page.goto(mock.url + "/history/no-such-session");
    await page.locator('[data-testid="not-found"]').waitFor();
    assert.match(await page.locator('[data-testid="not-found"]').textContent(), /no session/);
  });
});

describe("cards", () => {
  test("editing an answer from the review returns to the review", async () => {
    await open("/runs/r-form");
    const card = page.locator("[data-card]");
    await card.locator('[data-option="1"]').click(); // Blue
    await card.locator('[data-option="0"]').click(); // S
    await card.locator('[data-option="2"]').click(); // L
    await card.getByRole("button", { name: "Next" }).click();
    await card.locator('[data-option="0"]').click(); // Today
    await card.locator(".review").waitFor();
    await card.locator('[data-edit="0"]').click();
    await card.locator('[data-option="2"]').click(); // Green instead
    await card.locator(".review").waitFor({ timeout: 2000 });
    assert.match(await card.locator(".review").textContent(), /Green[\s\S]*S, L[\s\S]*Today/);
    await shot(page, "form-review");
    // A multi-select edited from the review returns through Next.
    await card.locator('[data-edit="1"]').click();
    await card.locator('[data-option="1"]').click(); // + M
    await card.getByRole("button", { name: "Next" }).click();
    await card.locator(".review").waitFor({ timeout: 2000 });
    await card.getByRole("button", { name: "Submit answers" }).click();
    await page.locator('[data-tool-id="tu_form"]').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), { tool_id: "tu_form", answers: [{ chosen: [2] }, { chosen: [0, 2, 1] }, { chosen: [0] }] });
  });

  test("plan rows in plain words with the CLI's as detail; the summary says which approval", async () => {
    await open("/runs/r-plan");
    const card = page.locator("[data-card]");
    const row = (i) => card.locator(`[data-row="${i}"]`);
    assert.match(await row(0).locator(".opt-label").textContent(), /Approve, and let it carry on by itself/);
    assert.equal(await row(0).locator(".opt-desc").textContent(), "Yes, and use auto mode");
    assert.match(await row(1).locator(".opt-label").textContent(), /Approve, and ask me before each edit/);
    assert.match(await card.locator(".reject-label").textContent(), /Ask for changes[\s\S]*Tell Claude what to change/);
    await card.locator(".options").scrollIntoViewIfNeeded();
    await shot(page, "plan-rows");
    await row(1).click();
    const marker = page.locator('[data-tool-id="tu_plan"] .marker.approved');
    await marker.waitFor();
    assert.equal(await marker.textContent(), "approved · asks before each edit");
    await marker.scrollIntoViewIfNeeded();
    await shot(page, "plan-approved");
  });

  test("Interrupt next to a pending card asks first", async () => {
    await open("/runs/r-single");
    await page.locator("[data-card]").waitFor();
    await page.locator('[data-action="interrupt"]').click();
    const confirm = page.locator('[data-confirm="interrupt"]');
    await confirm.waitFor();
    assert.match(await confirm.textContent(), /dismisses the question/);
    assert.deepEqual(await mock.control("interrupts"), [], "interrupted without confirmation");
    await shot(page, "interrupt-confirm");
    await page.locator('[data-action="cancel-interrupt"]').click();
    assert.equal(await confirm.count(), 0);
    assert.equal(await page.locator("[data-card]").count(), 1);
    await page.locator('[data-action="interrupt"]').click();
    await page.locator('[data-action="confirm-interrupt"]').click();
    await poll(async () => (await mock.control("interrupts")).length === 1, { what: "the interrupt" });
  });
});

describe("tool chips and copying", () => {
  test("a long command once, labelled output, a written file's content, copy buttons", async () => {
    await open("/runs/r-work");
    const bash = page.locator('[data-seq="6"] .chip-tool');
    await bash.locator("summary").click();
    const input = bash.locator('[data-part="input"]');
    assert.equal(await input.locator(".tool-label").textContent(), "Input");
    assert.equal(await input.locator("pre").textContent(), "cat <<'EOF' > gen.txt\nhello\nEOF\nwc -l gen.txt");
    const visible = await bash.evaluate((el) => el.innerText);
    assert.equal(visible.split("cat <<'EOF' > gen.txt").length - 1, 1, `the command shows more than once:\n${visible}`);
    assert.equal(await bash.locator('[data-part="output"] .tool-label').textContent(), "Output");
    await input.getByRole("button", { name: "Copy input" }).click();
    assert.equal(await clipboard(), "cat <<'EOF' > gen.txt\nhello\nEOF\nwc -l gen.txt");
    await bash.locator('[data-part="output"]').getByRole("button", { name: "Copy output" }).click();
    assert.equal(await clipboard(), "written\n");

    const write = page.locator('[data-seq="7"] .chip-tool');
    assert.equal(await write.locator('[data-part="input"]').count(), 0, "the content shows while the chip is closed");
    await write.locator("summary").click();
    assert.equal(await write.locator('[data-part="head"]').textContent(), "/home/op/r-work/notes.md");
    assert.equal(await write.locator('[data-part="input"] .tool-label').textContent(), "Content");
    assert.match(await write.locator('[data-part="input"] pre').textContent(), /# Notes\n\n- first point/);

    const code = page.locator('[data-seq="8"] .md pre');
    await code.getByRole("button", { name: "Copy code" }).click();
    assert.equal(await clipboard(), "go test ./internal/fold -run TestFold\n");
    assert.equal(await code.locator(".copy").textContent(), "Copied");
    await bash.scrollIntoViewIfNeeded();
    await shot(page, "tool-chips");
  });
});

describe("history", () => {
  test("search finds conversation text; rows show messages and activity; back keeps the search", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/history");
    await page.locator("[data-session]").first().waitFor();
    await page.locator('input[name="q"]').fill("go modu");
    await poll(async () => (await page.locator("[data-session]").count()) === 1, { what: "the search to match a word said in the chat" });
    const row = page.locator('[data-session="s-plain"]');
    const sub = await row.locator(".row-sub").textContent();
    assert.match(sub, /^lab · 6 messages · /);
    assert.doesNotMatch(sub, /\bKB\b|\d B\b/);
    await shot(page, "history-search");
    await row.click();
    await poll(async () => (await page.locator('[data-testid="title"]').textContent()) === "Set up the storage layer", { what: "the session's title in its header" });
    await page.goBack();
    await page.locator('[data-session="s-plain"]').waitFor();
    assert.equal(await page.locator('input[name="q"]').inputValue(), "go modu", "browser back lost the search");
    assert.equal(await page.locator("[data-session]").count(), 1);
    await page.locator('[data-session="s-plain"]').click();
    await page.getByRole("heading", { name: "Set up the storage layer" }).waitFor();
    await page.getByRole("link", { name: "Back" }).click();
    await page.locator('[data-session="s-plain"]').waitFor();
    assert.equal(await page.locator('input[name="q"]').inputValue(), "go modu", "the back link lost the search");
    assert.equal(new URL(page.url()).search, "?q=go%20modu");
  });
});

describe("jump to the latest", () => {
  test("counts new messages and never covers the text", async () => {
    await open("/runs/r-long");
    await poll(async () => (await chat().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)) < 50, { what: "at bottom" });
    await chat().evaluate((el) => el.scrollBy(0, -1500));
    const jump = page.getByRole("button", { name: /Jump to latest/ });
    await jump.waitFor();
    await mock.control("append", { run: "r-long", n: 3 });
    await poll(async () => (await jump.textContent()).trim() === "↓ 3 new messages", { what: "a count of 3 new messages" });
    const [b, pane] = [await box(jump), await box(chat())];
    assert.ok(b.top >= pane.bottom - 0.5, `the jump button (top ${b.top}) overlaps the chat (bottom ${pane.bottom})`);
    await shot(page, "jump-new");
    await jump.click();
    await poll(async () => (await jump.count()) === 0, { what: "the button gone at the bottom" });
    assert.ok((await chat().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)) < 50);
  });
});

describe("new run", () => {
  test("the demo's keywords are offered; a tap puts one in the prompt", async () => {
    await mock.control("reset");
    await page.goto(mock.url + "/new");
    await page.locator('[data-testid="scenarios"] > summary').click(); // folded under one line
    await page.locator('[data-keyword="lab:plan"]').waitFor();
    await page.locator('textarea[name="prompt"]').fill("add a greeting");
    await page.locator('[data-keyword="lab:plan"]').click();
    assert.equal(await page.locator('textarea[name="prompt"]').inputValue(), "lab:plan add a greeting");
    assert.equal(await page.locator('select[name="permission_mode"]').inputValue(), "plan");
    await page.locator('[data-keyword="lab:single"]').click();
    assert.equal(await page.locator('textarea[name="prompt"]').inputValue(), "lab:single add a greeting", "keywords piled up");
    await shot(page, "new-run-scenarios");
    await mock.control("scenarios", { list: null });
    await page.reload();
    await page.locator('input[name="cwd"]').waitFor();
    await page.waitForTimeout(300);
    assert.equal(await page.locator('[data-testid="scenarios"]').count(), 0, "scenarios shown on a server without them");
  });
});

describe("desktop (1280×800, mouse and keyboard)", () => {
  let desk, dpage;
  before(async () => {
    desk = await launch({ desktop: true });
    dpage = await desk.page();
    watch(dpage);
    await login(dpage, mock.url, "mock");
  });
  after(async () => desk?.close());

  test("the composer shares the chat's column; the new-run form has the same width", async () => {
    // The runs list sits beside the chat (e2e/phone.test.mjs); the chat's
    // column is centred in the rest.
    await mock.control("reset");
    await dpage.goto(mock.url + "/runs/r-work");
    const pane = await box(dpage.locator(".split-main"));
    const inner = await box(dpage.locator(".chat-inner"));
    const compose = await box(dpage.locator(".composer > .compose"));
    await dpage.goto(mock.url + "/");
    await dpage.locator("[data-run]").first().waitFor();
    await shot(dpage, "desktop-runs");
    await dpage.goto(mock.url + "/new");
    const form = await box(dpage.locator("form.form"));
    const near = (a, b) => Math.abs(a - b) <= 1.5;
    assert.ok(near(inner.width, 820) && near(inner.left - pane.left, (pane.width - 820) / 2), `chat column ${JSON.stringify(inner)} in ${JSON.stringify(pane)}`);
    assert.ok(near(form.width, inner.width) && near(form.left, (1280 - 820) / 2), `form ${form.left}+${form.width}`);
    assert.ok(near(compose.left, inner.left + 12) && near(compose.right, inner.right - 12), `composer ${compose.left}..${compose.right}; chat text ${inner.left + 12}..${inner.right - 12}`);
  });

  test("number keys pick options in a focused card", async () => {
    await mock.control("reset");
    await dpage.goto(mock.url + "/runs/r-single");
    const card = dpage.locator("[data-card]");
    await card.waitFor();
    assert.equal(await card.locator('[data-option="1"] .opt-key').isVisible(), true, "no key hints with a keyboard");
    await card.locator(".q-text").click(); // focus the card
    await dpage.keyboard.press("2");
    await dpage.locator('[data-tool-id="tu_single"]').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), { tool_id: "tu_single", answers: [{ chosen: [1] }] });

    await dpage.goto(mock.url + "/runs/r-multi");
    await card.waitFor();
    await card.locator(".q-text").click();
    await dpage.keyboard.press("3");
    await dpage.keyboard.press("1");
    assert.equal(await card.locator('[data-option="2"] input').isChecked(), true);
    assert.equal(await card.locator('[data-option="0"] input').isChecked(), true);
    // Typed into the Other field, digits stay text.
    await card.locator('input[type="text"]').fill("");
    await card.locator('input[type="text"]').press("4");
    assert.equal(await card.locator('input[type="text"]').inputValue(), "4");
    assert.equal(await card.locator('[data-option="3"] input').isChecked(), false);

    await dpage.goto(mock.url + "/runs/r-plan");
    await card.waitFor();
    await card.focus();
    await dpage.keyboard.press("2");
    await dpage.locator('[data-tool-id="tu_plan"] .marker.approved').waitFor();
    assert.deepEqual((await mock.control("answers")).at(-1), { tool_id: "tu_plan", option: 1 });
  });

  test("Ctrl+Enter starts a run", async () => {
    await mock.control("reset");
    await dpage.goto(mock.url + "/new");
    await dpage.locator('input[name="cwd"]').fill("/home/op/keys");
    await dpage.locator('textarea[name="prompt"]').fill("started from the keyboard");
    await dpage.locator('textarea[name="prompt"]').press("Control+Enter");
    await dpage.waitForURL(/\/runs\/r-new/);
    assert.equal(await dpage.locator('textarea[name="prompt"]').count(), 0);
  });
});

test("nothing opened a dialog or threw", () => {
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
});
