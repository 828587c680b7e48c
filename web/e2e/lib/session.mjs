// A real lab (or the mock server) and a phone-sized page signed in to it:
// what most browser suites start from.
import { existsSync } from "node:fs";
import { startMock } from "../mock/server.mjs";
import { launch, watch } from "./browser.mjs";
import { startLab } from "./lab.mjs";
import { login, setup } from "./util.mjs";

/** signedIn starts a lab (`lab demo`, see startLab for options) and a 390×844 page that set the password and shows the runs list; seen records the page's dialogs and errors. */
export async function signedIn(password, labOptions) {
  const lab = await startLab(labOptions);
  const browser = await launch();
  const page = await browser.page();
  page.setDefaultTimeout(60000);
  const seen = watch(page);
  await setup(page, lab, password);
  return { lab, browser, page, seen };
}

/** signOff closes what signedIn opened (either may be missing when it failed half way). */
export async function signOff({ browser, lab }) {
  await browser?.close();
  await lab?.stop();
}

/** mockSignedIn serves the built app (web/dist) from the mock server and signs a 390×844 page in; prepare(browser, mock) runs before the login (permissions, say). */
export async function mockSignedIn(prepare) {
  const dist = new URL("../../dist/", import.meta.url).pathname;
  if (!existsSync(dist + "index.html")) throw new Error("web/dist is missing: run `npm run build` first");
  const mock = await startMock({ dist });
  const browser = await launch();
  const page = await browser.page();
  const seen = watch(page);
  await prepare?.(browser, mock);
  await login(page, mock.url, "mock");
  return { mock, browser, page, seen };
}

/** mockSignOff closes what mockSignedIn opened. */
export async function mockSignOff({ browser, mock }) {
  await browser?.close();
  await mock?.close();
}
