// End-to-end: reaching the operator (issue 10) in headless Chromium against
// the real lab server running real CLI runs. Web Push goes the whole way
// but for the vendor's push service: lab encrypts for a subscription whose
// keys a local stand-in service holds (lib/pushservice.mjs), the stand-in
// decrypts, and the DevTools protocol delivers the payload to the real
// service worker (ServiceWorker.deliverPushMessage), which must show the
// notification; clicking it must open the run. Then the runs list's
// attention order, title and app badge, the working row, a queued reply,
// an API retry warning and a card's field above a phone keyboard.
//
//   make web build && LAB_BIN=$PWD/bin/lab npm --prefix web run e2e

import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launch, watch } from "./lib/browser.mjs";
import { startLab } from "./lib/lab.mjs";
import { startPushService } from "./lib/pushservice.mjs";
import { poll, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 90000 };
let lab, browser, page, seen, cdp, push;
const registrations = new Map();

before(async () => {
  lab = await startLab();
  browser = await launch();
  await browser.context.grantPermissions(["notifications"], { origin: lab.url });
  // Record what the app asks of the app badge (headless has no shelf icon).
  await browser.context.addInitScript(() => {
    window.__badges = [];
    const set = navigator.setAppBadge?.bind(navigator);
    const clear = navigator.clearAppBadge?.bind(navigator);
    navigator.setAppBadge = (n) => (window.__badges.push(n ?? -1), set ? set(n).catch(() => {}) : Promise.resolve());
    navigator.clearAppBadge = () => (window.__badges.push(0), clear ? clear().catch(() => {}) : Promise.resolve());
  });
  page = await browser.page();
  page.setDefaultTimeout(60000);
  seen = watch(page);
  cdp = await browser.context.newCDPSession(page);
  cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => {
    for (const r of e.registrations) {
      if (r.isDeleted) registrations.delete(r.scopeURL);
      else registrations.set(r.scopeURL, r);
    }
  });
  await cdp.send("ServiceWorker.enable");
  push = await startPushService();
});
after(async () => {
  await push?.close();
  await browser?.close();
  await lab?.stop();
});

/** call makes an API request from the page, with its session and CSRF token. */
async function call(method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const st = await (await fetch("/api/v1/auth/status")).json();
      const r = await fetch(path, {
        method,
        headers: { "Content-Type": "application/json", "X-CSRF-Token": st.csrf_token ?? "" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

/** startRunAPI starts a run without leaving the current screen. */
async function startRunAPI(name, prompt, mode) {
  const cwd = join(lab.work, name);
  mkdirSync(cwd, { recursive: true });
  const r = await call("POST", "/api/v1/runs", { cwd, prompt, permission_mode: mode });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

/** startRun fills the New run form and waits for the chat. */
async function startRun(name, prompt, mode = "") {
  const cwd = join(lab.work, name);
  mkdirSync(cwd, { recursive: true });
  await page.goto(lab.url + "/new");
  await page.locator('input[name="cwd"]').fill(cwd);
  await page.locator('textarea[name="prompt"]').fill(prompt);
  if (mode) await page.locator('select[name="permission_mode"]').selectOption(mode);
  await page.getByRole("button", { name: "Start" }).click();
  await page.waitForURL(/\/runs\//).catch(async (e) => {
    const err = await page.locator(".error").allTextContents().catch(() => []);
    console.log(`# start ${name} stayed at ${page.url()}; errors on the page: ${JSON.stringify(err)}\n# lab log: ${lab.log().slice(-1500)}`);
    throw e;
  });
  return decodeURIComponent(new URL(page.url()).pathname.split("/")[2]);
}

async function waitState(id, ok) {
  return poll(
    async () => {
      const r = await call("GET", `/api/v1/runs/${id}/messages?limit=1`);
      return ok(r.body) && r.body;
    },
    { ...slow, what: `run ${id} state` },
  );
}

const notifications = () =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
  });

describe("setup", () => {
  test("password, then the service worker controls the app at the root", async () => {
    const token = await lab.setupToken();
    await page.goto(`${lab.url}/setup#token=${encodeURIComponent(token)}`);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="confirm"]').fill(password);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("heading", { name: "Runs" }).waitFor();
    const reg = await page.evaluate(async () => {
      const r = await navigator.serviceWorker.ready;
      return { scope: r.scope, script: r.active?.scriptURL };
    });
    assert.equal(reg.scope, lab.url + "/");
    assert.equal(reg.script, lab.url + "/sw.js");
    await poll(() => registrations.get(lab.url + "/"), { what: "the registration over DevTools" });
    const res = await fetch(lab.url + "/sw.js");
    assert.equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), "no-cache");
  });
});

describe("web push", () => {
  let device, blocked;

  test("a run that becomes blocked pushes; the worker shows it; a click opens the run", async () => {
    const r = await call("POST", "/api/v1/push/devices", { name: "e2e phone", subscription: push.subscription });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    device = r.body;
    // This page is that device: it reports what it shows.
    await page.evaluate((id) => localStorage.setItem("lab.push.device", id), device.id);
    await page.goto(lab.url + "/");
    await page.getByRole("heading", { name: "Runs" }).waitFor();

    blocked = await startRunAPI("blocked", "lab:single pick a database");
    const payload = await push.next((p) => p.run_id === blocked.id);
    assert.equal(payload.reason, "blocked");
    assert.equal(payload.url, `/runs/${blocked.id}`);
    assert.equal(payload.title, "lab: a run needs you");
    assert.equal(payload.body, "blocked: a question is waiting");
    assert.ok(!JSON.stringify(payload).includes("database"), "conversation text in a push without the content option");

    // DevTools delivers to a worker it may still be starting; a delivery
    // that finds none is dropped, so deliver until the notification shows
    // (one notification per tag: a repeat only replaces it).
    let deliveries = 0;
    const shown = await poll(
      async () => {
        const found = (await notifications()).find((n) => n.tag === `run-${blocked.id}`);
        if (found) return found;
        const reg = registrations.get(lab.url + "/");
        await cdp.send("ServiceWorker.deliverPushMessage", { origin: lab.url, registrationId: reg.registrationId, data: JSON.stringify(payload) });
        deliveries++;
        return null;
      },
      { interval: 1000, what: "the notification" },
    );
    console.log(`# notification shown after ${deliveries} DevTools deliveries`);
    assert.equal(shown.title, "lab: a run needs you");
    assert.equal(shown.body, "blocked: a question is waiting");
    assert.equal(shown.data.url, `/runs/${blocked.id}`);

    // Tap it: the worker finds this window and shows the run in it.
    const [sw] = browser.context.serviceWorkers();
    assert.ok(sw, "no service worker target");
    await sw.evaluate(async (tag) => {
      const [n] = await self.registration.getNotifications({ tag });
      self.dispatchEvent(new NotificationEvent("notificationclick", { notification: n }));
    }, `run-${blocked.id}`);
    await page.waitForURL(`${lab.url}/runs/${blocked.id}`);
    await page.locator("[data-card]").waitFor(slow);
    assert.equal((await notifications()).filter((n) => n.tag === `run-${blocked.id}`).length, 0, "the tapped notification stayed");
  });

  test("no push to a device looking at the run", async () => {
    // Open a run's chat before it blocks; then block another run elsewhere.
    const watched = await startRunAPI("watched", "lab:single pick again");
    await page.goto(`${lab.url}/runs/${watched.id}`);
    await page.locator("[data-card]").waitFor(slow);
    const other = await startRunAPI("other", "lab:single one more");
    await push.next((p) => p.run_id === other.id);
    // The watched run blocked first, so its push would have arrived before.
    assert.deepEqual(
      push.received.filter((m) => m.text && JSON.parse(m.text).run_id === watched.id),
      [],
      "a push reached the device that showed the run",
    );
    for (const r of [watched, other]) await call("POST", `/api/v1/runs/${r.id}/stop`);
  });

  test("settings: the device, its options and a test push", async () => {
    await page.goto(lab.url + "/");
    await page.locator('[data-action="settings"]').click();
    await page.waitForURL(lab.url + "/settings");
    const row = page.locator(`[data-device="${device.id}"]`);
    await row.waitFor();
    assert.match(await row.textContent(), /e2e phone.*this device/s);
    assert.equal(await row.locator('input[name="blocked"]').isChecked(), true);
    assert.equal(await row.locator('input[name="turn_end"]').isChecked(), false);
    assert.equal(await row.locator('input[name="include_content"]').isChecked(), false);
    await row.locator('input[name="turn_end"]').check();
    await poll(async () => (await call("GET", "/api/v1/push/devices")).body.devices[0].options.turn_end === true, { what: "the option saved" });
    await row.locator('[data-action="test-push"]').click();
    const p = await push.next((p) => p.reason === "test");
    assert.equal(p.body, "Push works on e2e phone.");
    await page.getByRole("status").filter({ hasText: "Test notification sent" }).waitFor();
    await shot(page, "settings");
  });

  /** show delivers a decrypted payload to the service worker until its notification shows. */
  async function show(payload) {
    return poll(
      async () => {
        const found = (await notifications()).find((n) => n.tag === payload.tag && n.body === payload.body);
        if (found) return found;
        const reg = registrations.get(lab.url + "/");
        await cdp.send("ServiceWorker.deliverPushMessage", { origin: lab.url, registrationId: reg.registrationId, data: JSON.stringify(payload) });
        return null;
      },
      { interval: 1000, what: `the notification of ${payload.tag}` },
    );
  }

  /** tapAction dispatches a tap on one of a notification's buttons in the worker. */
  async function tapAction(tag, action) {
    const [sw] = browser.context.serviceWorkers();
    await sw.evaluate(
      async ({ tag, action }) => {
        const [n] = await self.registration.getNotifications({ tag });
        self.dispatchEvent(new NotificationEvent("notificationclick", { notification: n, action }));
      },
      { tag, action },
    );
  }

  test("a permission prompt allowed from the notification's button: the tool runs", async () => {
    // Actions come only with conversation content: the button must say what it allows.
    const r = await call("POST", `/api/v1/push/devices/${device.id}`, { options: { blocked: true, turn_end: false, include_content: true } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await page.goto(lab.url + "/");
    const run = await startRunAPI("notify-allow", "lab:permission make the probe", "manual");
    const payload = await push.next((p) => p.run_id === run.id && p.reason === "blocked");
    assert.deepEqual(
      payload.actions.map((a) => a.title),
      ["Allow once", "Deny"],
    );
    assert.match(payload.body, /touch lab-permission-probe\.txt/);
    await show(payload);
    const buttons = await page.evaluate(async (tag) => {
      const [n] = await (await navigator.serviceWorker.ready).getNotifications({ tag });
      return n.actions.map((a) => a.title);
    }, payload.tag);
    assert.deepEqual(buttons, ["Allow once", "Deny"], "the notification shows the answers");
    await tapAction(payload.tag, payload.actions[0].action);
    const probe = join(lab.work, "notify-allow", "lab-permission-probe.txt");
    await poll(() => existsSync(probe), { ...slow, what: "the allowed command to run" });
    await waitState(run.id, (p) => p.state !== "question");
    assert.equal(page.url(), lab.url + "/", "an answered action opened the run");
    // The token was single-use: the other button answers nothing now.
    const again = await page.evaluate(async (token) => (await fetch("/api/v1/push/act", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) })).status, payload.actions[1].token);
    assert.equal(again, 404);
    await call("POST", `/api/v1/runs/${run.id}/stop`);
  });

  test("a stale notification's button sends no key: it says the prompt changed and opens the run", async () => {
    await page.goto(lab.url + "/");
    const run = await startRunAPI("notify-stale", "lab:twice twice", "manual");
    const first = await push.next((p) => p.run_id === run.id && p.reason === "blocked");
    // The first prompt is answered in the app; the same command asks again.
    const firstDialog = (await waitState(run.id, (p) => p.pending_dialog?.permission)).pending_dialog;
    const once = firstDialog.permission.options.findIndex((o) => o.role === "allow_once");
    assert.equal((await call("POST", `/api/v1/runs/${run.id}/answer`, { tool_id: firstDialog.tool_id, option: once })).status, 204);
    const second = await waitState(run.id, (p) => p.pending_dialog && p.pending_dialog.tool_id !== firstDialog.tool_id);
    await push.next((p) => p.run_id === run.id && p.reason === "blocked");

    // Now the old notification's Allow is tapped.
    await show(first);
    await tapAction(first.tag, first.actions[0].action);
    await page.waitForURL(`${lab.url}/runs/${run.id}`);
    const said = await poll(async () => (await notifications()).find((n) => n.tag === first.tag && /changed/.test(n.title)), { what: "the notification saying it changed" });
    assert.match(said.body, /answered or changed/);
    // No key reached the CLI: the second prompt still waits, unanswered.
    await page.locator("[data-card]").waitFor(slow);
    await shot(page, "notification-stale");
    const now = (await call("GET", `/api/v1/runs/${run.id}/messages?limit=1`)).body;
    assert.equal(now.pending_dialog?.tool_id, second.pending_dialog.tool_id, "the second prompt was answered");
    await call("POST", `/api/v1/runs/${run.id}/stop`);
    await call("POST", `/api/v1/push/devices/${device.id}`, { options: { blocked: true, turn_end: true, include_content: false } });
  });
});

describe("attention", () => {
  test("the runs list puts the blocked run before the finished turn; title and badge count both", async () => {
    const done = await startRunAPI("finished", "lab:text say hello");
    await waitState(done.id, (p) => p.state === "needs_input");
    await page.goto(lab.url + "/");
    const rows = page.locator("[data-run]");
    await poll(async () => (await rows.count()) >= 4, { what: "the runs" });
    const order = await rows.evaluateAll((els) => els.map((e) => ({ id: e.dataset.run, attention: e.dataset.attention })));
    const live = order.filter((r) => r.attention !== "ended");
    assert.deepEqual(
      live.map((r) => r.attention),
      ["blocked", "your_turn"],
      `order: ${JSON.stringify(order)}`,
    );
    assert.equal(live[0].id, (await call("GET", "/api/v1/runs")).body.runs.find((r) => r.title.startsWith("lab:single pick a database")).id);
    assert.ok(order.slice(2).every((r) => r.attention === "ended"), "ended runs come last");
    const blockedRow = page.locator('[data-attention="blocked"][data-run]');
    assert.match(await blockedRow.locator(".badge").textContent(), /blocked/);
    assert.match(await blockedRow.locator("[data-preview]").textContent(), /Which database should we use\?/);
    const turnRow = page.locator(`[data-run="${done.id}"]`);
    assert.match(await turnRow.locator(".badge").textContent(), /your turn/);
    assert.match(await turnRow.locator("[data-preview]").textContent(), /Hello from lab's scripted model/);
    assert.match(await turnRow.locator(".row-sub").textContent(), /now/);
    await poll(async () => (await page.title()) === "(2) lab", { what: "the title counting the blocked run and the finished turn" });
    assert.equal(await page.evaluate(() => window.__badges.at(-1)), 2);
    await shot(page, "runs-attention");
  });

  test("a finished turn opened on another device shows seen here within a second; the next turn end brings it back", async () => {
    // The title counts a second or so after the rows (it refetches the
    // list, debounced): it is polled, never read once.
    const counted = async () => Number((await page.title()).match(/^\((\d+)\)/)?.[1] ?? 0);
    const others = await counted();
    const done = await startRunAPI("seen", "lab:text say hello");
    await waitState(done.id, (p) => p.state === "needs_input");
    await page.goto(lab.url + "/");
    const row = page.locator(`[data-run="${done.id}"]`);
    await poll(async () => (await row.getAttribute("data-attention")) === "your_turn", { what: "your turn" });
    await poll(async () => (await counted()) === others + 1, { what: "the title counting the finished turn" });

    // Another device (its own browser and login) opens the run.
    const phone = await launch();
    try {
      const p2 = await phone.page();
      await p2.goto(lab.url + "/");
      await p2.locator('input[name="password"]').fill(password);
      await p2.getByRole("button", { name: "Sign in" }).click();
      await p2.getByRole("heading", { name: "Runs" }).waitFor();
      await p2.goto(`${lab.url}/runs/${done.id}`);
      await p2.locator('[data-testid="chat"] [data-seq]').last().waitFor(slow);
      const t0 = Date.now();
      await poll(async () => (await row.getAttribute("data-attention")) === "seen", { what: "seen on this device" });
      console.log(`# seen reached the other device ${Date.now() - t0} ms after the chat showed`);
      await poll(async () => (await counted()) === others, { what: "the title no longer counting the seen run" });

      // Nobody looks; the operator replies by script; the turn ends again.
      await p2.goto(lab.url + "/");
      assert.equal((await call("POST", `/api/v1/runs/${done.id}/reply`, { text: "lab:text again" })).status, 204);
      await poll(async () => (await row.getAttribute("data-attention")) === "your_turn", { ...slow, what: "your turn again" });
    } finally {
      await phone.close();
    }
    await call("POST", `/api/v1/runs/${done.id}/stop`);
  });
});

describe("live progress", () => {
  test("the working row, a queued reply, and the composer after sending", async () => {
    const id = await startRun("slow", "lab:slow tell a long story");
    const row = page.locator("[data-working]");
    await row.waitFor(slow);
    assert.match(await row.textContent(), /Working… \d+:\d\d/);

    const box = page.locator('textarea[name="reply"]');
    const oneLine = await box.evaluate((el) => el.getBoundingClientRect().height);
    assert.equal(await box.evaluate((el) => el.scrollWidth <= el.clientWidth), true, "the placeholder overflows");
    await box.fill("also add a moral\nat the end\nplease");
    await box.dispatchEvent("input");
    const grown = await box.evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(grown > oneLine, `composer did not grow (${oneLine} → ${grown})`);
    await page.locator('[data-action="send"]').click();
    const bubble = page.locator("[data-queued]");
    await bubble.waitFor({ timeout: 5000 });
    assert.match(await bubble.textContent(), /also add a moral\s+at the end\s+please\s*queued/);
    await poll(async () => (await box.evaluate((el) => el.getBoundingClientRect().height)) === oneLine, { what: "the composer to shrink back" });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "reply", "the composer lost focus");
    if (await row.count()) await shot(page, "working-queued");

    // The CLI takes the queued reply after the turn: the bubble gives way
    // to the transcript's own message.
    await poll(async () => (await bubble.count()) === 0, { ...slow, what: "the queued bubble to settle" });
    const users = await page.locator('[data-testid="chat"] .msg.user:not(.queued) .bubble').allTextContents();
    assert.ok(users.some((t) => /also add a moral/.test(t)), `user messages: ${JSON.stringify(users)}`);
    await call("POST", `/api/v1/runs/${id}/stop`);
  });

  test("an API error the CLI retries shows as a warning, not an endless working", async () => {
    const id = await startRun("apierror", "lab:apierror hello");
    const stuck = page.locator('[data-working="stuck"]');
    await stuck.waitFor(slow).catch(async (e) => {
      const api = await call("GET", `/api/v1/runs/${id}/messages?limit=3`);
      console.log(`# no warning row; page: ${await page.locator(".chat-inner").innerText()}\n# API: ${JSON.stringify(api.body)}\n# lab log: ${lab.log().slice(-2000)}`);
      throw e;
    });
    assert.match(await stuck.textContent(), /500 Internal server error · retrying in \d+s · attempt \d+\/10/);
    await shot(page, "api-retry");
    await call("POST", `/api/v1/runs/${id}/stop`);
  });
});

describe("phone keyboard", () => {
  test("a card's submit button stays visible above the keyboard", async () => {
    await startRun("keyboard", "lab:single pick a database");
    const card = page.locator("[data-card]");
    await card.waitFor(slow);
    await card.locator('[data-option="other"]').click();
    const field = card.locator("textarea");
    await field.waitFor();
    await field.fill("DuckDB, because it is embedded and fast");
    // The keyboard takes the bottom of the screen: 844 → 480.
    await page.setViewportSize({ width: 390, height: 480 });
    const send = card.getByRole("button", { name: "Send" });
    const fits = () =>
      page.evaluate(() => {
        const pane = document.querySelector('[data-testid="chat"]').getBoundingClientRect();
        const f = document.activeElement.getBoundingClientRect();
        const b = [...document.querySelectorAll("[data-card] button")].find((x) => x.textContent.trim() === "Send").getBoundingClientRect();
        const bottom = Math.min(window.visualViewport.height, pane.bottom);
        return { ok: b.bottom <= bottom && f.top >= pane.top, b: b.bottom, bottom, f: f.top, top: pane.top };
      });
    await poll(async () => (await fits()).ok, { what: "the Send button above the keyboard" }).catch(async (e) => {
      throw new Error(`${e.message}: ${JSON.stringify(await fits())}`);
    });
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA");
    await shot(page, "card-keyboard");
    await send.click();
    await page.setViewportSize({ width: 390, height: 844 });
    assert.deepEqual(seen.errors, [], "page errors");
    assert.deepEqual(seen.dialogs, [], "a dialog opened");
  });
});
