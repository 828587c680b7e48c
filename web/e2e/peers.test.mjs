// End-to-end, three real labs on one machine (`lab demo` each: its own
// state, tmux socket and scripted model), one of them the hub the phone
// talks to: peers linked with the CLI as an operator would, a run started
// on a peer from the hub's new-run form, its question answered in the
// hub's web app, the runs list labelled by machine, and a peer killed
// (its row says since when, its runs greyed). At 390×844, and a desktop
// screenshot at 1280×800. Screenshots land in docs/screenshots/.
//
//   make web build && LAB_BIN=$PWD/bin/lab node --test web/e2e/peers.test.mjs

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { launch, watch } from "./lib/browser.mjs";
import { startLab } from "./lib/lab.mjs";
import { poll, setup, shot } from "./lib/util.mjs";

const password = "correct horse battery staple";
const slow = { timeout: 90000 };
let hub, b, c, browser, page, seen;

/** lab runs a subcommand of the binary under test. */
function lab(args, input = "") {
  const r = spawnSync(process.env.LAB_BIN, args, { input, encoding: "utf8" });
  assert.equal(r.status, 0, `lab ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** link makes peer a peer of the hub named name: a relay token made there, given to the hub's CLI on stdin. */
function link(name, peer) {
  const token = lab(["token", "create", "--relay", "hub", "--state-dir", peer.state]).trim();
  lab(["peer", "add", name, peer.url, "--state-dir", hub.state], token + "\n");
}

before(async () => {
  [hub, b, c] = await Promise.all([
    startLab({ extraArgs: ["--machine", "studio"] }),
    startLab({ extraArgs: ["--machine", "b-host"] }),
    startLab({ extraArgs: ["--machine", "c-host"] }),
  ]);
  link("build", b);
  link("cloud", c);
  browser = await launch();
  page = await browser.page();
  page.setDefaultTimeout(60000);
  seen = watch(page);
  await setup(page, hub, password);
});

after(async () => {
  await browser?.close();
  await Promise.all([hub, b, c].map((l) => l?.stop()));
});

/** startOn starts a run on machine from the hub's new-run form and waits for its chat. */
async function startOn(machine, folder, prompt) {
  await page.goto(hub.url + "/new");
  const tile = page.locator(`[data-testid="machines"] [data-machine="${machine}"]`);
  await tile.waitFor(slow);
  await tile.click();
  await page.locator('input[name="cwd"]').fill(folder);
  await page.locator('textarea[name="prompt"]').fill(prompt);
  await page.getByRole("button", { name: "Start" }).click();
  await page.waitForURL(/\/runs\//);
  return decodeURIComponent(new URL(page.url()).pathname.split("/")[2]);
}

describe("many machines, one phone", () => {
  test("a peer's question answered in the hub's app", async () => {
    // The hub picks up peers added with the CLI within seconds.
    await page.goto(hub.url + "/new");
    await poll(async () => (await page.locator('[data-testid="machines"] [data-machine]').count()) === 3 || (await page.reload(), false), {
      ...slow,
      interval: 1000,
      what: "the three machines in the new-run form",
    });
    const id = await startOn("build", b.work, "lab:single pick a database");
    assert.match(id, /^build~[0-9a-f]+$/, "a peer's run is addressed through its machine");
    const card = page.locator("[data-card]");
    await card.waitFor(slow);
    assert.match(await page.locator(".bar-sub").textContent(), /build/, "the header names the machine");
    await shot(page, "peers-question");
    await card.locator('[data-option="0"]').click();
    await page.locator(`[data-tool-id]`).first().waitFor(slow);
    await poll(async () => (await page.locator("[data-card]").count()) === 0, { ...slow, what: "the card answered" });
    // The peer recorded the answer: its own API (with a token of its own)
    // serves the outcome under the run's own id.
    const token = lab(["token", "create", "e2e", "--state-dir", b.state]).trim();
    const own = id.split("~")[1];
    const chosen = await poll(
      async () => {
        const r = await fetch(`${b.url}/api/v1/runs/${own}/messages`, { headers: { Authorization: `Bearer ${token}` } });
        const p = await r.json();
        return p.messages?.find((m) => m.dialog?.outcome)?.dialog.outcome.results?.[0]?.chosen?.[0];
      },
      { ...slow, what: "the outcome on the peer" },
    );
    assert.equal(chosen, "SQLite");
  });

  test("the runs list labels every machine's runs", async () => {
    await startOn("studio", hub.work, "lab:text hello from the studio");
    await startOn("cloud", c.work, "lab:text hello from the cloud");
    await page.goto(hub.url + "/");
    for (const m of ["studio", "build", "cloud"]) await page.locator(`[data-run] [data-machine="${m}"]`).first().waitFor(slow);
    assert.equal(await page.locator("[data-stale]").count(), 0, "no machine is down");
    await shot(page, "peers-runs");

    const desk = await launch({ desktop: true });
    try {
      const dp = await desk.page();
      await dp.goto(hub.url + "/");
      await dp.locator('input[name="password"]').fill(password);
      await dp.getByRole("button", { name: /sign in/i }).click();
      for (const m of ["studio", "build", "cloud"]) await dp.locator(`[data-run] [data-machine="${m}"]`).first().waitFor(slow);
      await shot(dp, "peers-desktop");
    } finally {
      await desk.close();
    }
  });

  test("a peer killed: its row says since when, its runs stay greyed", async () => {
    await page.goto(hub.url + "/");
    await page.locator('[data-run] [data-machine="cloud"]').first().waitFor(slow);
    await c.kill();
    // No reload: the hub's event stream tells the page.
    await page.locator('[data-machine-down="cloud"]').waitFor(slow);
    assert.match(await page.locator('[data-machine-down="cloud"]').textContent(), /cloud unreachable since \d\d:\d\d/);
    await page.locator('[data-stale] [data-machine="cloud"]').first().waitFor();
    assert.equal(await page.locator('[data-stale] [data-machine="build"]').count(), 0, "only the dead machine's runs are greyed");
    await shot(page, "peers-unreachable");
    await page.goto(hub.url + "/settings#machines");
    await page.locator('[data-peer="cloud"][data-status="unreachable"]').waitFor(slow);
    await page.locator('[data-peer="build"][data-status="ok"]').waitFor();
    await page.locator('[data-testid="peers"]').scrollIntoViewIfNeeded();
    await shot(page, "peers-settings");
    assert.deepEqual(seen.errors, [], "page errors");
    assert.deepEqual(seen.dialogs, [], "browser dialogs");
  });
});
