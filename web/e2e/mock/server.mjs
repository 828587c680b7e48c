// A scripted stand-in for lab's HTTP API, for browser tests of the web app's
// own behaviour (placement, scrolling, every answer shape, sanitizing,
// paging a 10,000-message session) that must not depend on a live CLI's
// timing. It speaks the same JSON as internal/httpapi (conv types) and
// serves web/dist with the same index.html fallback as internal/webui. The
// end-to-end suite against the real server is e2e/real.test.mjs.
//
// Scenario control for tests: POST /mock/{name} (see `control` below).

import { createECDH, createHash, randomBytes } from "node:crypto";
import { readFileSync, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webmanifest": "application/manifest+json",
};

const hash = (m) => createHash("sha1").update(JSON.stringify({ ...m, seq: 0, content_hash: "" })).digest("hex").slice(0, 16);
const stamp = (m) => ({ ...m, content_hash: hash(m) });
const t0 = Date.parse("2026-07-08T09:00:00Z");

export function text(seq, role, body) {
  return stamp({ seq, kind: "text", role, text: body, time: new Date(t0 + seq * 1000).toISOString() });
}
export function tool(seq, name, input, status, output, detail) {
  return stamp({ seq, kind: "tool", tool: { id: `tu_${seq}`, name, input, status, output, output_bytes: output?.length ?? 0, ...(detail ? { detail } : {}) } });
}
export function dialogMsg(seq, d) {
  return stamp({ seq, kind: "dialog", dialog: d });
}
export function note(seq, level, body) {
  return stamp({ seq, kind: "lifecycle", lifecycle: { level, text: body } });
}
export function thinking(seq, body) {
  return stamp({ seq, kind: "thinking", text: body });
}

export const shapes = {
  single: (id) => ({
    tool_id: id,
    kind: "question",
    answerable: true,
    outcome: null,
    questions: [
      {
        question: "Which database should we use?",
        header: "Database",
        multi_select: false,
        options: [
          { label: "SQLite", description: "Embedded, zero setup" },
          { label: "PostgreSQL", description: "A server, more moving parts" },
          { label: "MySQL" },
        ],
      },
    ],
  }),
  multi: (id) => ({
    tool_id: id,
    kind: "question",
    answerable: true,
    outcome: null,
    questions: [
      {
        question: "Which toppings?",
        header: "Pizza",
        multi_select: true,
        options: [{ label: "Cheese" }, { label: "Olives" }, { label: "Mushrooms" }, { label: "Ham" }],
      },
    ],
  }),
  form: (id) => ({
    tool_id: id,
    kind: "question",
    answerable: true,
    outcome: null,
    questions: [
      { question: "Which color do you prefer?", header: "Color", multi_select: false, options: [{ label: "Red" }, { label: "Blue" }, { label: "Green" }] },
      { question: "Which sizes?", header: "Size", multi_select: true, options: [{ label: "S" }, { label: "M" }, { label: "L" }] },
      { question: "Any deadline?", header: "When", multi_select: false, options: [{ label: "Today" }, { label: "This week" }] },
    ],
  }),
  plan: (id) => ({
    tool_id: id,
    kind: "plan",
    answerable: true,
    outcome: null,
    // As the server sends a pending plan: the CLI's labels, lab's roles.
    plan_rows: ["Yes, and use auto mode", "Yes, manually approve edits", "Tell Claude what to change"],
    plan_options: [
      { label: "Yes, and use auto mode", role: "approve", mode: "auto" },
      { label: "Yes, manually approve edits", role: "approve", mode: "manual" },
      { label: "Tell Claude what to change", role: "feedback" },
    ],
    plan:
      "# Plan: add a history search\n\n" +
      "## Steps\n\n" +
      Array.from({ length: 14 }, (_, i) => `${i + 1}. Step ${i + 1}: change \`file${i}.go\` so that the search handles case ${i + 1}, with a test beside it.`).join("\n") +
      "\n\n## Risks\n\n- The index could grow large.\n- **Nothing** is deleted.\n\n```go\nfunc Search(q string) []Session { return nil }\n```\n",
  }),
};

/** outcomeOf computes what the transcript would record for an answer. */
function outcomeOf(d, a) {
  if (d.kind === "plan") {
    const row = d.plan_options?.[a.option];
    // As the fold reads it from what the CLI writes after each row.
    if (row?.role === "approve") return { dismissed: false, approved: true, approval_mode: row.mode };
    return { dismissed: false, approved: false, feedback: a.feedback ?? "" };
  }
  return {
    dismissed: false,
    results: d.questions.map((q, i) => ({
      question: q.question,
      chosen: (a.answers[i].chosen ?? []).map((c) => q.options[c].label),
      other_text: a.answers[i].other_text ?? "",
    })),
  };
}

function newRun(id, title, msgs, pending, state, cli = { cli_version: "2.1.332", cli_verified: true }) {
  return {
    run: { id, cwd: `/home/op/${id}`, title, state, pending: !!pending, started_at: new Date(t0).toISOString(), ...cli },
    msgs,
    pending,
    transcript: "tr-" + id,
  };
}

export function startMock({ port = 0, dist, password = "mock", log = () => {} } = {}) {
  const runs = new Map();
  const sessions = new Map();
  const clients = new Set();
  const heartbeatMs = 5000;
  // Login sessions by cookie, each with its CSRF token: several browsers
  // (devices) may be logged in at once.
  const logins = new Map();
  let setupToken = "";
  let answers = []; // every answer body received, for assertions
  let answerDelayMs = 0;
  let conflictNext = false;
  let lockedFor = 0; // seconds a login is refused for (429), 0 when not
  let interrupts = []; // run ids interrupted, for assertions
  let seenReports = []; // run ids reported seen, for assertions
  let delays = {}; // API path -> ms its GET waits before answering
  let external = [];
  const demoScenarios = [
    { keyword: "lab:single", summary: "one single-select question" },
    { keyword: "lab:plan", summary: "a plan to approve", permission_mode: "plan" },
    { keyword: "lab:markdown", summary: "long markdown with code blocks and a table" },
  ];
  let scenarios = demoScenarios;
  // Web Push: the server's key and the subscribed devices, one of them
  // failing as a dead phone does (its reason in words, as the server keeps it).
  const vapid = createECDH("prime256v1");
  vapid.generateKeys();
  const devices = new Map();

  function reset() {
    runs.clear();
    sessions.clear();
    answers = [];
    interrupts = [];
    seenReports = [];
    delays = {};
    external = [];
    scenarios = demoScenarios;
    devices.clear();
    devices.set("dev-old", {
      id: "dev-old",
      name: "Old phone",
      service: "fcm.googleapis.com",
      options: { blocked: true, turn_end: false, include_content: false },
      created_at: new Date(t0).toISOString(),
      last_push_at: new Date(t0 + 3600000).toISOString(),
      last_error: "the push service (fcm.googleapis.com) could not be found: is this machine online, and can it resolve fcm.googleapis.com?",
    });
    conflictNext = false;
    answerDelayMs = 0;
    lockedFor = 0;
    const base = [text(1, "user", "Set up the storage layer."), thinking(2, "Let me look at the repo first."), tool(3, "Bash", "ls -la", "ok", "go.mod\nmain.go\n"), text(4, "assistant", "I found a Go module. One question before I start:")];
    runs.set("r-single", newRun("r-single", "Set up the storage layer", [...base, dialogMsg(5, shapes.single("tu_single"))], shapes.single("tu_single"), "question"));
    runs.set("r-multi", newRun("r-multi", "Order a pizza", [...base], shapes.multi("tu_multi"), "question"));
    runs.set("r-form", newRun("r-form", "Design the form", [...base, dialogMsg(5, shapes.form("tu_form"))], shapes.form("tu_form"), "question"));
    runs.set("r-plan", newRun("r-plan", "Add history search", [...base, dialogMsg(5, shapes.plan("tu_plan"))], shapes.plan("tu_plan"), "question"));
    runs.set(
      "r-work",
      newRun(
        "r-work",
        "Refactor the fold",
        [
          ...base,
          tool(5, "Bash", "go test ./...", "error", "FAIL lab/internal/x\nexit status 1"),
          tool(6, "Bash", "cat <<'EOF' > gen.txt …", "ok", "written\n", "cat <<'EOF' > gen.txt\nhello\nEOF\nwc -l gen.txt"),
          tool(7, "Write", "/home/op/r-work/notes.md", "ok", "File created successfully at: /home/op/r-work/notes.md", "# Notes\n\n- first point\n- second point\n"),
          text(8, "assistant", "Run this:\n\n```sh\ngo test ./internal/fold -run TestFold\n```\n\nThen check the output."),
        ],
        null,
        "working",
        // r-work runs on a CLI version lab was not verified with.
        { cli_version: "2.1.340", cli_verified: false },
      ),
    );
    runs.set(
      "r-title",
      newRun("r-title", "Add a health endpoint to the API server and document it in the operator's guide, with examples", [...base], null, "needs_input"),
    );
    const bare = newRun("r-bare", "myproject", [], null, "idle");
    bare.run.cwd = "/home/op/work/myproject";
    runs.set("r-bare", bare);
    runs.set("r-locked", newRun("r-locked", "Permission prompt", [...base], null, "question"));
    runs.set("r-ended", newRun("r-ended", "Old run", [...base, note(5, "info", "Session ended")], null, "ended"));
    const long = [];
    for (let i = 1; i <= 10000; i++) {
      if (i % 10 === 1) long.push(text(i, "user", `Prompt number ${i}: please continue with the next part.`));
      else if (i % 10 === 5) long.push(tool(i, "Read", `src/file${i}.ts`, "ok", "line\n".repeat(20)));
      else long.push(text(i, "assistant", `Message **${i}**. Some *markdown* with \`code\` and a list:\n\n- one\n- two\n\nThe end of message ${i}.`));
    }
    runs.set("r-long", newRun("r-long", "A very long session", long, null, "needs_input"));
    const xss = [
      text(1, "user", "<img src=x onerror=\"window.__xss=(window.__xss||0)+1\"> hello"),
      text(2, "assistant", "Look: <script>window.__xss=(window.__xss||0)+1</script>\n\n<img src=x onerror=\"window.__xss=1\">\n\n[click me](javascript:window.__xss=1)\n\n<iframe src=\"javascript:window.__xss=1\"></iframe>"),
      tool(3, "Bash", "<svg onload=window.__xss=1>", "ok", "<script>window.__xss=1</script><img src=x onerror=window.__xss=1>"),
      thinking(4, "<img src=x onerror=window.__xss=1>"),
      note(5, "warning", "<b onmouseover=window.__xss=1>warn</b>"),
    ];
    sessions.set("s-xss", { session: { id: "s-xss", project_path: "/home/op/evil", title: "XSS <img src=x onerror=window.__xss=1>", size: 1234, mtime: new Date(t0).toISOString(), messages: xss.length, last_activity: new Date(t0).toISOString() }, msgs: xss });
    sessions.set("s-plain", {
      session: { id: "s-plain", project_path: "/home/op/lab", title: "Set up the storage layer", size: 4321, mtime: new Date(t0 - 86400000).toISOString(), messages: 6, last_activity: new Date(t0 - 86400000).toISOString() },
      msgs: [...base, dialogMsg(5, { ...shapes.single("tu_old"), outcome: { dismissed: false, results: [{ question: "Which database should we use?", chosen: ["SQLite"] }] } }), dialogMsg(6, { ...shapes.form("tu_old2"), outcome: { dismissed: true } })],
    });
  }
  reset();

  const send = (res, status, body) => {
    res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end(body === undefined ? "" : JSON.stringify(body));
  };
  const loginOf = (req) => (req.headers.cookie ?? "").match(/lab_session=([0-9a-f]+)/)?.[1] ?? "";
  const authed = (req) => logins.has(loginOf(req));
  const emit = (ev) => {
    const f = `event: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`;
    for (const c of clients) c.write(f);
  };

  function page(msgs, pending, state, transcript, url) {
    const after = Number(url.searchParams.get("after") ?? 0);
    const before = Number(url.searchParams.get("before") ?? 0);
    const limit = Math.min(500, Number(url.searchParams.get("limit") ?? 100) || 100);
    let sel;
    if (after > 0) sel = msgs.filter((m) => m.seq > after && (!before || m.seq < before)).slice(0, limit);
    else {
      const upto = before > 0 ? msgs.filter((m) => m.seq < before) : msgs;
      sel = upto.slice(Math.max(0, upto.length - limit));
    }
    return {
      transcript_id: transcript,
      state,
      pending_dialog: pending,
      messages: sel,
      first_seq: sel[0]?.seq ?? 0,
      last_seq: sel[sel.length - 1]?.seq ?? 0,
      has_more_before: sel.length > 0 && sel[0].seq > 1,
    };
  }

  async function body(req) {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const s = Buffer.concat(chunks).toString();
    return s ? JSON.parse(s) : {};
  }

  /** control lets a test change the world: add a dialog, back-patch, etc. */
  const control = {
    reset: () => reset(),
    // Answer GET path (an API path such as "/providers") after ms.
    delay: ({ path, ms }) => {
      delays[path] = ms;
    },
    // No runs at all, as on a fresh server.
    clear: () => runs.clear(),
    // Append n assistant messages to a run.
    append: ({ run, n = 1, text: t = "more" }) => {
      const r = runs.get(run);
      for (let i = 0; i < n; i++) r.msgs.push(text(r.msgs.length + 1, "assistant", `${t} ${r.msgs.length + 1}`));
      emit({ type: "run.messages.changed", run_id: run, state: r.run.state });
    },
    // Raise a new pending dialog of a shape; inStream adds its dialog message too.
    ask: ({ run, shape, id, inStream = true }) => {
      const r = runs.get(run);
      const d = shapes[shape](id);
      if (inStream) r.msgs.push(dialogMsg(r.msgs.length + 1, d));
      r.pending = d;
      r.run.state = "question";
      r.run.pending = true;
      emit({ type: "run.messages.changed", run_id: run, state: "question" });
      emit({ type: "run.changed", run_id: run });
    },
    // The transcript line of the pending dialog lands after the hook served it.
    foldPending: ({ run, before = 0 }) => {
      const r = runs.get(run);
      const d = dialogMsg(0, r.pending);
      if (before > 0) r.msgs.splice(before - 1, 0, d);
      else r.msgs.push(d);
      r.msgs = r.msgs.map((m, i) => stamp({ ...m, seq: i + 1 }));
      emit({ type: "run.messages.changed", run_id: run, state: r.run.state, backpatch_seq: before || undefined });
    },
    // Add (or replace) a run: its messages, pending dialog, state and any
    // other Run fields (run).
    put: ({ id, title = id, msgs = [], pending = null, state = "needs_input", run = {} }) => {
      const r = newRun(id, title, msgs, pending, state);
      Object.assign(r.run, run);
      runs.set(id, r);
      emit({ type: "run.changed", run_id: id });
    },
    conflictNext: () => (conflictNext = true),
    // Refuse logins for secs seconds, as the server's rate limit does.
    lockout: ({ secs = 30 }) => (lockedFor = secs),
    interrupts: () => interrupts,
    seen: () => seenReports,
    // The sessions started outside lab that GET /external-sessions lists.
    external: ({ list }) => (external = list),
    scenarios: ({ list }) => (scenarios = list),
    answerDelay: ({ ms }) => (answerDelayMs = ms),
    answers: () => answers,
    setupToken: () => {
      setupToken = randomBytes(6).toString("hex");
      logins.clear();
      return setupToken;
    },
    logout: () => logins.clear(),
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const p = url.pathname;
    log(req.method, p + url.search);
    try {
      if (p.startsWith("/mock/")) {
        const fn = control[p.slice(6)];
        if (!fn) return send(res, 404, { error: "no such control" });
        return send(res, 200, { result: fn(await body(req)) ?? null });
      }
      if (p.startsWith("/api/v1/")) {
        const api = p.slice(7);
        if (req.method === "GET" && delays[api]) await new Promise((ok) => setTimeout(ok, delays[api]));
        if (api === "/auth/status") {
          return send(res, 200, { setup_needed: setupToken !== "", logged_in: authed(req), csrf_token: logins.get(loginOf(req)) });
        }
        if (api === "/auth/login" || api === "/auth/setup") {
          const b = await body(req);
          if (lockedFor > 0) {
            res.setHeader("Retry-After", String(lockedFor));
            return send(res, 429, { error: `too many login attempts from your address: try again in ${lockedFor} s` });
          }
          if (api === "/auth/setup") {
            if (!setupToken || b.setup_token !== setupToken)
              return send(res, 401, { error: "the setup token is unknown, used or expired: restart lab for a new setup link, or run `lab passwd`" });
            setupToken = "";
            password = b.password;
          }
          if (b.password !== password) return send(res, 401, { error: "wrong password" });
          const cookie = randomBytes(8).toString("hex");
          const csrf = randomBytes(8).toString("hex");
          logins.set(cookie, csrf);
          res.setHeader("Set-Cookie", `lab_session=${cookie}; Path=/; HttpOnly; SameSite=Strict`);
          return send(res, 200, { logged_in: true, via: "session", csrf_token: csrf });
        }
        if (!authed(req)) return send(res, 401, { error: "log in first" });
        if (req.method === "POST" && req.headers["x-csrf-token"] !== logins.get(loginOf(req))) return send(res, 403, { error: "bad CSRF token" });
        if (api === "/auth/logout") {
          logins.delete(loginOf(req));
          return send(res, 204);
        }
        if (api === "/events") {
          res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
          // As lab: a heartbeat at once and then every every_ms, which
          // the app needs to keep trusting the stream.
          const beat = `event: heartbeat\ndata: {"type":"heartbeat","every_ms":${heartbeatMs}}\n\n`;
          res.write("retry: 1000\n\n" + beat);
          const beating = setInterval(() => res.write(beat), heartbeatMs);
          clients.add(res);
          req.on("close", () => {
            clearInterval(beating);
            clients.delete(res);
          });
          return;
        }
        if (api === "/runs" && req.method === "GET") {
          const archived = url.searchParams.get("archived") === "true";
          return send(res, 200, { runs: [...runs.values()].map((r) => r.run).filter((r) => !!r.archived_at === archived) });
        }
        if ((api === "/runs/archive" || api === "/runs/unarchive") && req.method === "POST") {
          // As the server: only ended runs are archived; each is re-checked.
          const on = api === "/runs/archive";
          const out = { done: [], skipped: [] };
          for (const id of (await body(req)).ids ?? []) {
            const r = runs.get(id);
            if (!r) out.skipped.push({ id, reason: "no such run" });
            else if (r.run.state !== "ended") out.skipped.push({ id, reason: "it is still running: stop it first" });
            else {
              if (on) r.run.archived_at = new Date().toISOString();
              else delete r.run.archived_at;
              out.done.push(id);
            }
          }
          emit({ type: "run.changed" });
          return send(res, 200, out);
        }
        if (api === "/runs" && req.method === "POST") {
          const b = await body(req);
          const id = "r-new" + runs.size;
          const r = newRun(id, b.prompt || b.cwd, b.prompt ? [text(1, "user", b.prompt)] : [], null, "working");
          r.run.cwd = b.cwd;
          runs.set(id, r);
          return send(res, 201, r.run);
        }
        let m = api.match(/^\/runs\/([^/]+)\/(messages|answer|reply|interrupt|stop|seen)$/);
        if (m) {
          const r = runs.get(decodeURIComponent(m[1]));
          if (!r) return send(res, 404, { error: "no such run" });
          switch (m[2]) {
            case "messages":
              return send(res, 200, page(r.msgs, r.pending, r.run.state, r.transcript, url));
            case "answer": {
              const a = await body(req);
              answers.push(a);
              if (answerDelayMs) await new Promise((ok) => setTimeout(ok, answerDelayMs));
              if (conflictNext || !r.pending || r.pending.tool_id !== a.tool_id) {
                conflictNext = false;
                return send(res, 409, { error: "the dialog changed" });
              }
              const outcome = outcomeOf(r.pending, a);
              const i = r.msgs.findIndex((x) => x.kind === "dialog" && x.dialog.tool_id === a.tool_id);
              if (i >= 0) r.msgs[i] = stamp({ ...r.msgs[i], dialog: { ...r.msgs[i].dialog, outcome } });
              else r.msgs.push(dialogMsg(r.msgs.length + 1, { ...r.pending, outcome }));
              r.pending = null;
              r.run.state = "working";
              delete r.run.attention;
              r.run.pending = false;
              r.msgs.push(text(r.msgs.length + 1, "assistant", "Thanks, continuing."));
              emit({ type: "run.messages.changed", run_id: r.run.id, state: "working", backpatch_seq: i >= 0 ? i + 1 : undefined });
              return send(res, 204);
            }
            case "reply": {
              const b = await body(req);
              r.msgs.push(text(r.msgs.length + 1, "user", b.text));
              r.run.state = "working";
              delete r.run.attention;
              emit({ type: "run.messages.changed", run_id: r.run.id, state: "working" });
              return send(res, 204);
            }
            case "interrupt":
              interrupts.push(r.run.id);
              r.pending = null;
              r.msgs.push(note(r.msgs.length + 1, "info", "[Request interrupted by user]"));
              r.run.state = "needs_input";
              emit({ type: "run.messages.changed", run_id: r.run.id, state: "needs_input" });
              return send(res, 204);
            case "seen":
              // As the server: a finished turn read since is "seen".
              seenReports.push(r.run.id);
              if (r.run.state === "needs_input" && r.run.attention !== "seen") {
                r.run.attention = "seen";
                emit({ type: "run.changed", run_id: r.run.id });
              }
              return send(res, 204);
            case "stop":
              r.run.state = "ended";
              r.pending = null;
              emit({ type: "run.changed", run_id: r.run.id });
              return send(res, 204);
          }
        }
        if (api === "/sessions") {
          // As the server: folder or title contain q, or the conversation
          // holds every word of it (as word prefixes).
          const q = (url.searchParams.get("q") ?? "").toLowerCase();
          const words = q.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
          const said = (msgs) => {
            const vocab = msgs.flatMap((m) => (m.text ?? m.tool?.input ?? "").toLowerCase().split(/[^\p{L}\p{N}]+/u));
            return words.length > 0 && words.every((w) => vocab.some((v) => v.startsWith(w)));
          };
          const all = [...sessions.values()]
            .filter((s) => !q || s.session.title.toLowerCase().includes(q) || s.session.project_path.toLowerCase().includes(q) || said(s.msgs))
            .map((s) => s.session);
          return send(res, 200, { sessions: all, total: all.length, has_more: false });
        }
        if (api === "/providers") {
          // One provider, as a lab with a single CLI lists it.
          return send(res, 200, {
            providers: [
              {
                name: "agent",
                label: "Agent CLI",
                default_mode: "auto",
                modes: [
                  { value: "auto", label: "Auto", help: "the CLI decides which actions need your approval" },
                  { value: "manual", label: "Manual", help: "asks before running commands and editing files" },
                  { value: "plan", label: "Plan first", help: "plans first, then asks you to approve the plan" },
                ],
              },
            ],
          });
        }
        if (api === "/external-sessions") return send(res, 200, { sessions: external });
        // As a lab without peers answers (httpapi.PeerList).
        if (api === "/peers" && req.method === "GET") return send(res, 200, { machine: "mock", peers: [] });
        if (api === "/folders") {
          // As the picker's server: recent folders first, then git repositories.
          const all = [
            { path: "/home/op/work/api", git: true, recent: true },
            { path: "/home/op/work/web", git: true },
            { path: "/home/op/notes" },
          ];
          const q = url.searchParams.get("q") ?? "";
          const folders = all.filter((f) => !q || f.path.includes(q.replace(/^~/, "/home/op")));
          return send(res, 200, { folders, roots: ["/home/op"], home: "/home/op", truncated: false });
        }
        if (api === "/push/key") return send(res, 200, { public_key: vapid.getPublicKey().toString("base64url") });
        if (api === "/push/devices" && req.method === "GET") return send(res, 200, { devices: [...devices.values()] });
        if (api === "/push/devices" && req.method === "POST") {
          const b = await body(req);
          const d = { id: "dev-" + devices.size, name: b.name, service: new URL(b.subscription.endpoint).hostname, options: { blocked: true, turn_end: false, include_content: false }, created_at: new Date().toISOString() };
          devices.set(d.id, d);
          return send(res, 201, d);
        }
        if (api === "/push/presence") return send(res, devices.has((await body(req)).device_id) ? 204 : 404, undefined);
        m = api.match(/^\/push\/devices\/([^/]+)$/);
        if (m) {
          const d = devices.get(decodeURIComponent(m[1]));
          if (!d) return send(res, 404, { error: "no device " + m[1] });
          if (req.method === "DELETE") {
            devices.delete(d.id);
            return send(res, 204);
          }
          const b = await body(req);
          Object.assign(d.options, b.options ?? {});
          return send(res, 200, d);
        }
        if (api === "/demo/scenarios") {
          if (!scenarios) return send(res, 404, { error: "this server is not a demo: it has no scripted scenarios" });
          return send(res, 200, { scenarios });
        }
        m = api.match(/^\/sessions\/([^/]+)$/);
        if (m) {
          const s = sessions.get(decodeURIComponent(m[1]));
          if (!s) return send(res, 404, { error: "no session " + m[1] });
          return send(res, 200, s.session);
        }
        m = api.match(/^\/sessions\/([^/]+)\/messages$/);
        if (m) {
          const s = sessions.get(decodeURIComponent(m[1]));
          if (!s) return send(res, 404, { error: "no such session" });
          return send(res, 200, page(s.msgs, null, "ended", "tr-" + s.session.id, url));
        }
        return send(res, 404, { error: "no API endpoint " + p });
      }
      // The app, with the client-route fallback.
      let file = join(dist, normalize(p).replace(/^(\.\.[/\\])+/, ""));
      if (!existsSync(file) || statSync(file).isDirectory()) {
        if (extname(p)) return send(res, 404, { error: "not found" });
        file = join(dist, "index.html");
      }
      res.writeHead(200, {
        "Content-Type": types[extname(file)] ?? "application/octet-stream",
        "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'",
      });
      res.end(readFileSync(file));
    } catch (e) {
      send(res, 500, { error: String(e) });
    }
  });
  return new Promise((ok) =>
    server.listen(port, "127.0.0.1", () => {
      const { port: actual } = server.address();
      ok({
        url: `http://127.0.0.1:${actual}`,
        control: async (name, args = {}) => control[name](args),
        close: () =>
          new Promise((done) => {
            for (const c of clients) c.end();
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    }),
  );
}

// Run standalone for manual poking: node e2e/mock/server.mjs [port]
if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = new URL("../../dist/", import.meta.url).pathname;
  const m = await startMock({ port: Number(process.argv[2] ?? 8787), dist, log: (...a) => console.log(...a) });
  console.log(`mock lab at ${m.url} (password: mock)`);
}
