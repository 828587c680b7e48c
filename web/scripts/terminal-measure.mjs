// Measures the terminal view against a real `lab demo` (LAB_BIN) in
// headless Chromium at 390×844:
//   idle:    lab's CPU time per second over a window with no run, then
//            with 10 idle runs, no terminal open (the terminal must cost
//            nothing while nobody watches);
//   latency: a pane change (text typed into the pane with tmux, as a
//            keystroke at the desk would) to the terminal sheet showing
//            it, p50/p95 over --samples changes (wall clock, one machine);
//   stream:  while a run streams (lab:slow), lab's CPU and the tmux
//            processes' with the sheet open and without, and the terminal
//            stream's bytes per second (lab's own counter).
// Usage: make web build && LAB_BIN=$PWD/bin/lab node web/scripts/terminal-measure.mjs [--samples 40] [--window 20] [--idle-only]
// (--idle-only: the idle figures alone, e.g. for a build without the terminal view.)
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "../e2e/lib/browser.mjs";
import { startLab } from "../e2e/lib/lab.mjs";
import { poll, setPassword } from "../e2e/lib/util.mjs";

const args = process.argv.slice(2);
const opt = (name, d) => {
  const i = args.indexOf("--" + name);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const samples = opt("samples", 40);
const window = opt("window", 20);
const tick = 100; // USER_HZ on Linux
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** cpu is a process's user+system CPU time in ms (0 once it is gone). */
function cpu(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / tick;
  } catch {
    return 0;
  }
}

/** pids lists the processes whose command line satisfies test. */
function pids(test) {
  const out = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0");
      if (test(argv)) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

const lab = await startLab();
const sock = join(lab.state, "tmux.sock");
const [labPid] = pids((a) => a.includes("--state-dir") && a.includes(lab.state) && a[0].endsWith("lab"));
const tmuxServer = () => pids((a) => a[0] === "tmux" && a.includes(sock) && !a.includes("-C"));
const controlClients = () => pids((a) => a[0] === "tmux" && a.includes(sock) && a.includes("-C"));
const browser = await launch();
const page = await browser.page();
page.setDefaultTimeout(60000);
await setPassword(page, lab, "correct horse battery staple");

/** api calls lab from the page (its cookie and CSRF token). */
const api = (method, path, body) =>
  page.evaluate(
    async ({ method, path, body }) => {
      const st = await (await fetch("/api/v1/auth/status")).json();
      const r = await fetch("/api/v1" + path, {
        method,
        headers: { "Content-Type": "application/json", "X-CSRF-Token": st.csrf_token ?? "" },
        body: body ? JSON.stringify(body) : undefined,
      });
      return r.status === 204 ? null : r.json();
    },
    { method, path, body },
  );
const metric = async (name) => {
  const text = await (await fetch(`${lab.url}/metrics`)).text();
  const m = text.match(new RegExp(`^${name} (\\S+)$`, "m"));
  return m ? Number(m[1]) : 0;
};
const startRun = async (name, prompt) => {
  const cwd = join(lab.work, name);
  mkdirSync(cwd, { recursive: true });
  return (await api("POST", "/runs", { cwd, prompt, provider: "claude" })).id;
};
const runState = async (id) => (await api("GET", "/runs")).runs.find((r) => r.id === id)?.state;
/** cpuOver is the CPU ms per second of each process group over secs. */
async function cpuOver(secs, groups) {
  const before = Object.fromEntries(Object.entries(groups).map(([k, f]) => [k, f().reduce((s, p) => s + cpu(p), 0)]));
  await sleep(secs * 1000);
  return Object.fromEntries(Object.entries(groups).map(([k, f]) => [k, (f().reduce((s, p) => s + cpu(p), 0) - before[k]) / secs]));
}

// Idle: no run, then 10 idle runs (started without a prompt), no terminal open.
await sleep(3000);
const idle0 = await cpuOver(window, { lab: () => [labPid] });
const idleRuns = [];
for (let i = 0; i < 10; i++) idleRuns.push(await startRun(`idle${i}`, ""));
for (const id of idleRuns) {
  await poll(
    () => {
      const p = spawnSync("tmux", ["-S", sock, "capture-pane", "-p", "-t", `=lab-${id}:`], { encoding: "utf8" }).stdout;
      return p.includes("❯");
    },
    { timeout: 120000, what: `run ${id}'s prompt` },
  );
}
await sleep(5000); // past start-up looks
const idle10 = await cpuOver(window, { lab: () => [labPid] });
const clientsIdle = controlClients().length;
const f = (x) => x.toFixed(1);
console.log(`idle, no terminal: lab CPU ${f(idle0.lab)} ms/s with 0 runs, ${f(idle10.lab)} ms/s with 10 idle runs; tmux control clients: ${clientsIdle}`);
if (args.includes("--idle-only")) {
  await browser.close();
  await lab.stop();
  process.exit(0);
}
for (const id of idleRuns.slice(1)) await api("POST", `/runs/${id}/stop`);

// Latency: the sheet open on an idle run; text typed into its pane.
const run = idleRuns[0];
await page.goto(`${lab.url}/runs/${run}`);
await page.locator('[data-action="terminal"]').click();
await page.locator("[data-terminal] .xterm-rows").waitFor();
await poll(async () => (await page.locator("[data-terminal] .xterm-rows").innerText()).includes("❯"), { what: "the terminal's screen" });
await page.evaluate(() => {
  const rows = document.querySelector("[data-terminal] .xterm-rows");
  window.__seen = new Map();
  const check = () => {
    const t = rows.textContent;
    for (const [token, at] of window.__seen) if (at === 0 && t.includes(token)) window.__seen.set(token, Date.now());
  };
  new MutationObserver(check).observe(rows, { subtree: true, childList: true, characterData: true });
});
const lat = [];
for (let i = 0; i < samples; i++) {
  const token = `k${100 + i}z`;
  await page.evaluate((t) => window.__seen.set(t, 0), token);
  const t0 = Date.now();
  spawnSync("tmux", ["-S", sock, "send-keys", "-t", `=lab-${run}:`, "-l", token]);
  const at = await poll(() => page.evaluate((t) => window.__seen.get(t), token), { interval: 5, what: `token ${token}` });
  lat.push(at - t0);
  if (i % 8 === 7) spawnSync("tmux", ["-S", sock, "send-keys", "-t", `=lab-${run}:`, "C-u"]);
  await sleep(150);
}
spawnSync("tmux", ["-S", sock, "send-keys", "-t", `=lab-${run}:`, "C-u"]);
await page.locator('[data-action="terminal-close"]').click();
// The CLI's own part: the same change to the pane's capture showing it
// (tmux polled every few ms), with no terminal open.
const echo = [];
for (let i = 0; i < samples; i++) {
  const token = `e${100 + i}z`;
  const t0 = Date.now();
  spawnSync("tmux", ["-S", sock, "send-keys", "-t", `=lab-${run}:`, "-l", token]);
  await poll(() => spawnSync("tmux", ["-S", sock, "capture-pane", "-p", "-t", `=lab-${run}:`], { encoding: "utf8" }).stdout.includes(token), {
    interval: 2,
    what: `token ${token} on the pane`,
  });
  echo.push(Date.now() - t0);
  if (i % 8 === 7) spawnSync("tmux", ["-S", sock, "send-keys", "-t", `=lab-${run}:`, "C-u"]);
  await sleep(150);
}
spawnSync("tmux", ["-S", sock, "send-keys", "-t", `=lab-${run}:`, "C-u"]);

// Streaming: a lab:slow turn with the sheet open, then one without.
async function streaming(open) {
  const id = await startRun(`slow${open ? "open" : "closed"}`, "lab:slow tell me a story");
  await page.goto(`${lab.url}/runs/${id}`);
  if (open) {
    await page.locator('[data-action="terminal"]').click();
    await page.locator("[data-terminal] .xterm-rows").waitFor();
  }
  await poll(async () => (await runState(id)) === "working", { timeout: 60000, what: "the slow turn" });
  await sleep(1500);
  const bytes0 = await metric("lab_terminal_stream_bytes_total");
  const secs = 6;
  const c = await cpuOver(secs, { lab: () => [labPid], tmuxServer, control: controlClients });
  const bytes = (await metric("lab_terminal_stream_bytes_total")) - bytes0;
  const still = (await runState(id)) === "working";
  if (open) await page.locator('[data-action="terminal-close"]').click();
  await api("POST", `/runs/${id}/stop`);
  return { ...c, bytesPerSec: bytes / secs, stillStreaming: still };
}
const streams = { open: [], closed: [] };
for (let r = 0; r < 3; r++) {
  streams.open.push(await streaming(true));
  streams.closed.push(await streaming(false));
}

console.log(`pane change -> terminal updated (${lat.length} samples): p50 ${pct(lat, 50)} ms, p95 ${pct(lat, 95)} ms, max ${Math.max(...lat)} ms`);
console.log(`  of which the CLI drawing it (capture shows it, no terminal open): p50 ${pct(echo, 50)} ms, p95 ${pct(echo, 95)} ms`);
for (const k of ["open", "closed"]) {
  const xs = streams[k];
  const avg = (key) => f(xs.reduce((s, x) => s + x[key], 0) / xs.length);
  console.log(
    `streaming run, terminal ${k}: lab ${avg("lab")} ms/s, tmux server ${avg("tmuxServer")} ms/s, control client ${avg("control")} ms/s, stream ${avg("bytesPerSec")} B/s (${xs.map((x) => (x.stillStreaming ? "" : "turn ended early ")).join("")}${xs.length} runs)`,
  );
}
await browser.close();
await lab.stop();
