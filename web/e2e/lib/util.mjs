// Small helpers shared by the e2e suites.
import { mkdirSync } from "node:fs";

export const screenshotDir = new URL("../../../docs/screenshots/", import.meta.url).pathname;

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

export async function shot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: screenshotDir + name + ".png" });
}

/** login fills the login screen. */
export async function login(page, base, password) {
  await page.goto(base + "/");
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole("button", { name: /sign in|set password/i }).click();
  await page.locator("header.bar").first().waitFor();
}

/** setup sets the password through the setup link lab logged, and waits for the runs list. */
export async function setup(page, lab, password) {
  const token = await lab.setupToken();
  await page.goto(`${lab.url}/setup#token=${encodeURIComponent(token)}`);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('input[name="confirm"]').fill(password);
  await page.getByRole("button", { name: "Set password" }).click();
  await page.getByRole("heading", { name: "Runs" }).waitFor();
}
