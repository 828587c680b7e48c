// A real lab and a phone-sized page signed in to it: what most browser
// suites start from.
import { launch, watch } from "./browser.mjs";
import { startLab } from "./lab.mjs";
import { setup } from "./util.mjs";

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
