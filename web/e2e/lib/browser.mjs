// Debian's Chromium driven by playwright-core (never a downloaded browser):
// headless, sandbox off (we run as root in CI), no network chatter, a fresh
// profile per launch, and a phone-sized page.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";

/** launch starts a phone-sized page (390×844, touch); { desktop: true } gives a 1280×800 mouse-and-keyboard one. */
export async function launch({ desktop = false } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "lab-e2e-chromium-"));
  const device = desktop
    ? { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false }
    : { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
    ...device,
    colorScheme: process.env.E2E_COLOR_SCHEME === "dark" ? "dark" : "light",
  });
  return {
    context,
    async page() {
      const page = context.pages()[0] ?? (await context.newPage());
      return page;
    },
    async newPage() {
      return context.newPage();
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** watch records what must never happen in a page: dialogs, page errors. */
export function watch(page) {
  const seen = { dialogs: [], errors: [], console: [] };
  page.on("dialog", async (d) => {
    seen.dialogs.push(d.message());
    await d.dismiss().catch(() => {});
  });
  page.on("pageerror", (e) => seen.errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") seen.console.push(m.text());
  });
  return seen;
}
