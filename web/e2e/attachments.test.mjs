// End-to-end at 390×844 in headless Chromium against the real lab server
// (`lab demo`, the real Claude Code CLI and the scripted model): a photo
// attached through the file chooser reaches the chat as a thumbnail read
// back from the transcript, a photo attached to the first prompt too, a
// pasted screenshot and a dropped file attach, and the context meter
// warns once the model reports a context 85% full.
// Screenshots land in docs/screenshots/ with LAB_SCREENSHOTS=1
// (`make screenshots`), else in a temp folder.
//
//   make web build && LAB_BIN=$PWD/bin/lab npm --prefix web run e2e

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { signedIn, signOff } from "./lib/session.mjs";
import { poll, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 90000 };
let lab, browser, page, seen;

before(async () => {
  ({ lab, browser, page, seen } = await signedIn(password));
});
after(() => signOff({ browser, lab }));

/** photo is a PNG of w×h that the page's own canvas draws: a sky over a field, so a thumbnail shows something. */
async function photo(w, h) {
  const url = await page.evaluate(
    ([w, h]) => {
      const c = document.createElement("canvas");
      c.width = w;
      c.height = h;
      const g = c.getContext("2d");
      const sky = g.createLinearGradient(0, 0, 0, h * 0.6);
      sky.addColorStop(0, "#5a9fe6");
      sky.addColorStop(1, "#b9dcf5");
      g.fillStyle = sky;
      g.fillRect(0, 0, w, h * 0.6);
      g.fillStyle = "#3f9a38";
      g.fillRect(0, h * 0.6, w, h * 0.4);
      return c.toDataURL("image/png");
    },
    [w, h],
  );
  return Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
}

const chat = () => page.locator('[data-testid="chat"]');

/** diagnose prints what the server said when a wait failed. */
async function diagnose(what) {
  const file = join(lab.root, `failed-${Date.now()}.png`);
  await page.screenshot({ path: file }).catch(() => {});
  console.log(`# ${what} failed at ${page.url()}; screenshot ${file}\n# lab log tail:\n${lab.log().slice(-3000)}`);
}

/** thumbnail waits for the chat's image under the prompt that says text, loaded. */
async function thumbnail(text) {
  const msg = chat().locator(".msg.user", { hasText: text });
  const img = msg.locator('[data-attachment="image"] img');
  await img.waitFor(slow).catch(async (e) => {
    await diagnose(`the thumbnail of "${text}"`);
    throw e;
  });
  await poll(() => img.evaluate((el) => el.complete && el.naturalWidth > 0), { what: "the thumbnail loaded", timeout: 30000 });
  assert.doesNotMatch(await msg.innerText(), /\[Image #|Attached file/, "the placeholder or the file line shows in the bubble");
  return { msg, img };
}

/** attachViaChooser attaches files through the Attach menu's file chooser. */
async function attachViaChooser(files) {
  await page.locator('[data-action="attach"]').click();
  const chooser = page.waitForEvent("filechooser");
  await page.locator('[data-action="attach-file"]').click();
  await (await chooser).setFiles(files);
}

describe("attachments and the meter, Claude Code", () => {
  let runUrl;

  test("a photo with the first prompt", async () => {
    const cwd = join(lab.work, "photos");
    mkdirSync(cwd, { recursive: true });
    await page.goto(lab.url + "/new");
    await page.locator('input[name="cwd"]').fill(cwd);
    await page.locator('textarea[name="prompt"]').fill("lab:text here is the whiteboard");
    await attachViaChooser([{ name: "whiteboard.png", mimeType: "image/png", buffer: await photo(320, 200) }]);
    await page.locator('.attach-chip[data-status="ready"]').waitFor();
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/\/runs\//);
    runUrl = page.url();
    await thumbnail("here is the whiteboard");
    await chat().getByText("You said: ", { exact: false }).last().waitFor(slow);
  });

  test("a photo attached to a reply through the file chooser", async () => {
    await page.locator('[data-composer="open"] textarea').waitFor();
    await attachViaChooser([{ name: "IMG_2041.png", mimeType: "image/png", buffer: await photo(480, 360) }]);
    const chip = page.locator(".attach-chip");
    // The preview is the picked file itself (a blob: URL the page allows).
    await poll(() => chip.locator("img").evaluate((el) => el.complete && el.naturalWidth === 480), { what: "the chip's preview shown" });
    await page.locator('.attach-chip[data-status="ready"]').waitFor();
    await page.locator('[data-composer="open"] textarea').fill("lab:text the bug is in this screenshot");
    await shot(page, "attach-composer");
    await page.locator('[data-action="send"]').click();
    await poll(async () => (await chip.count()) === 0, { what: "the chips gone once sent" });
    const { img } = await thumbnail("the bug is in this screenshot");
    // The bytes come back from the transcript: the image the model got.
    const src = await img.getAttribute("src");
    assert.match(src, /^\/api\/v1\/runs\/[^/]+\/attachments\/\d+\/0$/);
    await chat().getByText("the bug is in this screenshot", { exact: false }).last().waitFor();
    await shot(page, "attach-photo");
  });

  test("a screenshot pasted into the text box, a file dropped on it", async () => {
    const box = page.locator('[data-composer="open"] textarea');
    await box.evaluate(async (el) => {
      const c = document.createElement("canvas");
      c.width = 64;
      c.height = 40;
      c.getContext("2d").fillRect(0, 0, 64, 40);
      const png = await new Promise((ok) => c.toBlob(ok, "image/png"));
      const paste = new DataTransfer();
      paste.items.add(new File([png], "image.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: paste, bubbles: true, cancelable: true }));
      const drop = new DataTransfer();
      drop.items.add(new File(["a,b\n1,2\n"], "table.csv", { type: "text/csv" }));
      el.dispatchEvent(new DragEvent("drop", { dataTransfer: drop, bubbles: true, cancelable: true }));
    });
    await poll(async () => (await page.locator('.attach-chip[data-status="ready"]').count()) === 2, { what: "both attached" });
    assert.equal(await box.inputValue(), "", "the paste or the drop typed text");
    while ((await page.locator(".attach-chip").count()) > 0) await page.locator(".attach-chip").first().getByRole("button").click();
  });

  test("a disguised image is refused where it was picked, nothing sent", async () => {
    await attachViaChooser([{ name: "not-a-photo.png", mimeType: "image/png", buffer: Buffer.from("plain text, no PNG") }]);
    const failed = page.locator('.attach-chip[data-status="failed"]');
    await failed.waitFor();
    assert.match(await failed.innerText(), /declared image\/png/);
    await failed.getByRole("button").click();
    assert.equal(await page.locator(".attach-chip").count(), 0);
  });

  test("the meter warns at 80% full", async () => {
    await page.goto(runUrl);
    await page.locator('[data-composer="open"] textarea').fill("lab:full how full is it?");
    await page.locator('[data-action="send"]').click();
    const warning = page.locator("[data-meter-warning]");
    await warning.waitFor(slow).catch(async (e) => {
      await diagnose("the meter's warning");
      throw e;
    });
    assert.match(await warning.innerText(), /Context 85% full/);
    const badge = page.locator("[data-meter]");
    assert.equal(await badge.getAttribute("data-meter"), "85");
    assert.match(await badge.innerText(), /ctx 85% · ~\$\d/);
    await badge.click();
    const details = page.locator("[data-meter-details]");
    await details.waitFor();
    assert.match(await details.innerText(), /850k of 1M \(85%\)/);
    assert.match(await details.innerText(), /an estimate from prices of \d{4}-\d{2}-\d{2}/);
    await shot(page, "meter-full");
  });

  test("nothing went wrong in the page", () => {
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.dialogs, []);
  });
});
