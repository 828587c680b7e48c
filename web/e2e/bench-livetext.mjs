// A measurement, not a test: what reading the words a working CLI draws
// costs. The same slow turn (lab:slow, about 10 s of streaming) runs
// twice, once while a client reads the run's messages every second (as
// an open chat does; lab then reads the pane four times a second) and
// once with nobody reading (after the last read's 15 s hold on the
// pane reading ran out); for each, the CPU time lab and its tmux
// server used during the turn (lab's own and its finished children's,
// from /proc), and how many live text events lab sent.
//
//   make web build && LAB_BIN=$PWD/bin/lab node web/e2e/bench-livetext.mjs [claude|codex]

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startLab } from "./lib/lab.mjs";
import { poll } from "./lib/util.mjs";

const provider = process.argv[2] ?? "claude";
const tick = 100; // USER_HZ, as on Linux

/** cpu is a process's CPU time in ms, with its waited-for children's. */
function cpu(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / tick;
}

/** pidOf finds the process whose command line holds all of parts. */
function pidOf(...parts) {
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const c = readFileSync(`/proc/${d}/cmdline`, "utf8");
      if (parts.every((p) => c.includes(p))) return Number(d);
    } catch {
      /* gone */
    }
  }
  throw new Error(`no process with ${parts}`);
}

const lab = await startLab();
try {
  const call = lab.client("bench");
  const api = async (method, path, body) => (await call(method, path, body)).body;
  const labPid = pidOf(process.env.LAB_BIN, lab.state);
  const cwd = join(lab.work, "bench");
  mkdirSync(cwd, { recursive: true });
  const run = await api("POST", "/runs", { cwd, prompt: "lab:text hello", provider });
  const page = () => api("GET", `/runs/${run.id}/messages`);
  await poll(async () => (await page()).state === "needs_input", { timeout: 90000, what: "the first turn" });
  const tmuxPid = Number(execFileSync("tmux", ["-S", join(lab.state, "tmux.sock"), "display-message", "-p", "#{pid}"], { encoding: "utf8" }).trim());
  // Events lab sends, counted from its stream.
  let live = 0;
  const ctrl = new AbortController();
  const stream = fetch(lab.url + "/api/v1/events", { headers: { Authorization: `Bearer ${call.token}` }, signal: ctrl.signal }).then(async (r) => {
    for await (const chunk of r.body) live += (Buffer.from(chunk).toString().match(/event: run\.live\.changed/g) ?? []).length;
  }).catch(() => {});
  for (const watched of [true, false]) {
    // A read of the messages holds lab's pane reading for 15 s
    // (internal/chat liveWatchTTL): let the last one run out first.
    if (!watched) await new Promise((ok) => setTimeout(ok, 16000));
    live = 0;
    const before = { lab: cpu(labPid), tmux: cpu(tmuxPid), at: Date.now() };
    await api("POST", `/runs/${run.id}/reply`, { text: "lab:slow tell me" });
    await poll(async () => {
      const p = watched ? await page() : await api("GET", "/runs").then((l) => l.runs.find((r) => r.id === run.id));
      return p.state === "needs_input" && Date.now() - before.at > 3000;
    }, { timeout: 120000, interval: 1000, what: "the slow turn" });
    const s = (Date.now() - before.at) / 1000;
    const labMs = cpu(labPid) - before.lab;
    const tmuxMs = cpu(tmuxPid) - before.tmux;
    console.log(`${provider}, ${watched ? "a chat open" : "nobody reading"}: ${s.toFixed(1)} s turn; lab ${labMs} ms CPU (${((labMs / s) / 10).toFixed(1)} %), tmux ${tmuxMs} ms (${((tmuxMs / s) / 10).toFixed(1)} %), ${live} run.live.changed events`);
  }
  ctrl.abort();
  await stream;
} finally {
  await lab.stop();
}
