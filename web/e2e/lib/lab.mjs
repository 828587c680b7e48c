// Starting the real lab server for the end-to-end suite: a given binary,
// a private temp HOME (so the CLI's ~/.claude, its transcripts and history
// are the test's own), a temp state dir, a free loopback port. The command
// line is a template so it can follow cmd/lab's flags without code edits:
//
//   LAB_BIN        the lab binary, built with the web app (`make web build`)
//   LAB_E2E_ARGS   argument template, default "demo --addr {addr} --state-dir {state}"
//                  ({addr} = 127.0.0.1:PORT, {state} = the state dir, {home} = HOME)
//
// The server gets HOME, LAB_ADDR, LAB_STATE_DIR, LAB_CLAUDE_BIN and LAB_CODEX_BIN in its
// environment too. The suite reads the one-time setup token from the
// server's output (the setup link ".../setup#token=<token>") and waits for
// GET /healthz to answer 200. In demo mode the runs' HOME, where the CLI
// writes transcripts and history reads them, is <state>/home.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { poll } from "./util.mjs";

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

// The setup link lab logs is <base>/setup#token=<token>.
const tokenPatterns = [/\/setup#token=([A-Za-z0-9_\-.~%]+)/, /setup_token=([A-Za-z0-9_\-.~%]+)/];

/** startLab starts a server; extraArgs are appended to its command line (`--machine b`, say). */
export async function startLab({ extraArgs = [] } = {}) {
  const bin = process.env.LAB_BIN;
  if (!bin || !existsSync(bin)) {
    throw new Error(`LAB_BIN must name the lab binary built with the web app (got ${JSON.stringify(bin)}); run \`make web build\` and set LAB_BIN=$(pwd)/bin/lab`);
  }
  const root = mkdtempSync(join(tmpdir(), "lab-e2e-"));
  const home = join(root, "home");
  const state = join(root, "state");
  const work = join(root, "work");
  for (const d of [home, state, work]) mkdirSync(d, { recursive: true });
  const port = await freePort();
  const addr = `127.0.0.1:${port}`;
  const template = process.env.LAB_E2E_ARGS ?? "demo --addr {addr} --state-dir {state}";
  const args = template
    .split(/\s+/)
    .filter(Boolean)
    .map((a) => a.replaceAll("{addr}", addr).replaceAll("{state}", state).replaceAll("{home}", home))
    .concat(extraArgs);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    LAB_ADDR: addr,
    LAB_STATE_DIR: state,
    TMPDIR: process.env.TMPDIR ?? "/tmp",
    LANG: "C.UTF-8",
  };
  if (process.env.LAB_CLAUDE_BIN) env.LAB_CLAUDE_BIN = process.env.LAB_CLAUDE_BIN;
  if (process.env.LAB_CODEX_BIN) env.LAB_CODEX_BIN = process.env.LAB_CODEX_BIN;
  // From the repository root, where demo finds the pinned CLI under tools/.
  const cwd = new URL("../../../", import.meta.url).pathname;
  let out = "";
  const onData = (b) => {
    out += b.toString();
    if (process.env.E2E_VERBOSE) process.stderr.write("[lab] " + b.toString());
  };
  let child;
  let exited = null;
  const url = `http://${addr}`;
  const fail = (what) => new Error(`${what}\nlab ${args.join(" ")} said:\n${out.slice(-4000)}`);
  /** spawnLab starts the server (again, on the same port and state) and waits for it to answer. */
  async function spawnLab() {
    exited = null;
    const c = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: false });
    child = c;
    c.stdout.on("data", onData);
    c.stderr.on("data", onData);
    c.on("exit", (code, sig) => (exited = { code, sig }));
    try {
      await poll(
        async () => {
          if (exited) throw fail(`lab exited early (${JSON.stringify(exited)})`);
          const r = await fetch(url + "/healthz").catch(() => null);
          return r?.ok;
        },
        { timeout: 60000, interval: 200, what: "lab /healthz" },
      );
    } catch (e) {
      c.kill("SIGKILL");
      throw e.message.includes("said:") ? e : fail(e.message);
    }
  }
  await spawnLab();
  const setupToken = () => {
    for (const re of tokenPatterns) {
      const m = out.match(re);
      if (m) return decodeURIComponent(m[1]);
    }
    return "";
  };
  return {
    url,
    home,
    /** HOME of the runs (and of history): the demo keeps its own. */
    claudeHome: process.env.LAB_E2E_CLAUDE_HOME ?? (template.startsWith("demo") ? join(state, "home") : home),
    state,
    work,
    root,
    log: () => out,
    async setupToken() {
      return poll(() => setupToken(), { timeout: 20000, what: "a setup token in lab's output" }).catch(() => {
        throw fail("no setup token in lab's output");
      });
    },
    port,
    /**
     * client makes an API token named name (`lab token create`) and
     * returns a function that calls lab's API with it directly, behind
     * the browser's back: api(method, path, body) → {status, body}; the
     * token is api.token.
     */
    client(name = "e2e") {
      const out = spawnSync(bin, ["token", "create", name, "--state-dir", state], { encoding: "utf8" });
      const token = out.stdout?.match(/lab_[A-Za-z0-9_-]+/)?.[0];
      if (!token) throw new Error(`lab token create said: ${out.stdout}${out.stderr}`);
      const api = async (method, path, body) => {
        const r = await fetch(url + "/api/v1" + path, {
          method,
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : null };
      };
      return Object.assign(api, { token });
    },
    /** restart stops the server as SIGTERM does (its runs keep running in tmux) and starts it again on the same port and state. */
    async restart() {
      if (!exited) {
        child.kill("SIGTERM");
        await poll(() => exited, { timeout: 15000, what: "lab to exit" });
      }
      await spawnLab();
    },
    /** kill ends the server at once (SIGKILL), leaving its runs and files; stop still cleans up. */
    async kill() {
      if (!exited) {
        child.kill("SIGKILL");
        await poll(() => exited, { timeout: 15000, what: "lab to die" });
      }
    },
    async stop() {
      if (!exited) {
        child.kill("SIGTERM");
        await poll(() => exited, { timeout: 15000, what: "lab to exit" }).catch(() => child.kill("SIGKILL"));
      }
      // Runs outlive lab by design (they live in tmux): end this suite's.
      const sock = join(state, "tmux.sock");
      if (existsSync(sock)) spawnSync("tmux", ["-S", sock, "kill-server"], { stdio: "ignore" });
      for (const pid of pidsMentioning(root)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
      // A CLI killed with its tmux server can still be writing its config
      // under HOME for a moment: retry a folder that filled up meanwhile.
      if (!process.env.E2E_KEEP) rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}

/** pidsMentioning lists processes whose command line contains s (Linux /proc). */
function pidsMentioning(s) {
  const out = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, "utf8").includes(s)) out.push(Number(d));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}
