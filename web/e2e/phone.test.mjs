// Browser tests of what a phone operator tripped over (issue 22): long
// numbered lists, the desktop layout, the new-run form, the permission
// card's words, the runs list's previews and housekeeping, turning
// notifications on. Real Chromium against the scripted API
// (e2e/mock/server.mjs); screenshots go to docs/screenshots/. Needs
// `npm run build` first.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { launch, watch } from "./lib/browser.mjs";
import { startMock, text } from "./mock/server.mjs";
import { login, shot } from "./lib/util.mjs";

const dist = new URL("../dist/", import.meta.url).pathname;
let mock, browser, page, seen;

before(async () => {
  assert.ok(existsSync(dist + "index.html"), "web/dist is missing: run `npm run build` first");
  mock = await startMock({ dist });
  browser = await launch();
  page = await browser.page();
  seen = watch(page);
  await login(page, mock.url, "mock");
});
after(async () => {
  await browser?.close();
  await mock?.close();
});

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

test("nothing opened a dialog or threw", () => {
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
});
