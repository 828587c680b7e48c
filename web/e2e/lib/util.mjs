// Small helpers shared by the e2e suites.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * screenshotDir is where shot writes: the tracked docs/screenshots/ only
 * when asked (LAB_SCREENSHOTS=1, as `make screenshots` sets it), else a
 * temp folder removed when the process exits, so a test run takes every
 * screenshot (the path cannot rot) and leaves the tree as it found it.
 */
export const screenshotDir =
  process.env.LAB_SCREENSHOTS === "1"
    ? new URL("../../../docs/screenshots/", import.meta.url).pathname
    : tempShots();

function tempShots() {
  const dir = mkdtempSync(join(tmpdir(), "lab-shots-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir + "/";
}

/** pngMagic starts every PNG file. */
const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** poll retries fn until it returns a truthy value or the deadline passes. */
export async function poll(fn, { timeout = 10000, interval = 100, what = "condition" } = {}) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((ok) => setTimeout(ok, interval));
  }
}

/** shot saves the page as name.png in screenshotDir, and checks it did. */
export async function shot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  const file = screenshotDir + name + ".png";
  await page.screenshot({ path: file });
  if (!readFileSync(file).subarray(0, pngMagic.length).equals(pngMagic)) throw new Error(`screenshot ${file} is not a PNG`);
}

/** login fills the login screen. */
export async function login(page, base, password) {
  await page.goto(base + "/");
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole("button", { name: /sign in|set password/i }).click();
  await page.locator("header.bar").first().waitFor();
}

/** setup sets the password through the setup link lab logged (opened at base: lab's address, or a proxy's), and waits for the runs list. */
export async function setup(page, lab, password, base = lab.url) {
  const token = await lab.setupToken();
  await page.goto(`${base}/setup#token=${encodeURIComponent(token)}`);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('input[name="confirm"]').fill(password);
  await page.getByRole("button", { name: "Set password" }).click();
  await page.getByRole("heading", { name: "Runs" }).waitFor();
}
