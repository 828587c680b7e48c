// The typed client of lab's JSON API: a mirror of the Go types in
// internal/conv (keep the two in step) and the one fetch wrapper that adds
// the session cookie, the CSRF header and error decoding. Nothing else in the
// app calls fetch.

export type Kind = "text" | "thinking" | "tool" | "dialog" | "lifecycle";
export type Role = "user" | "assistant";
export type State = "working" | "question" | "needs_input" | "idle" | "ended";
export type ToolStatus = "running" | "ok" | "error";
export type Level = "info" | "warning" | "error";
export type DialogKind = "question" | "plan" | "permission";

/** How the operator answered a tool's permission prompt (conv.Decision). */
export interface Decision {
  allowed: boolean;
  /** "once", or "always" (a rule was saved). */
  scope?: string;
  feedback?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  input: string;
  status: ToolStatus;
  output?: string;
  output_bytes?: number;
  output_truncated?: boolean;
  decision?: Decision;
  /** The input's main text where `input` (one line) cuts it: a long command, a written file's content. */
  detail?: string;
  detail_truncated?: boolean;
  /** The files the call writes, as the agent named them. */
  files?: string[];
}

export interface Lifecycle {
  level: Level;
  text: string;
}

export interface Option {
  label: string;
  description?: string;
}

export interface Question {
  question: string;
  header?: string;
  multi_select: boolean;
  options: Option[];
}

export interface QuestionResult {
  question: string;
  chosen: string[] | null;
  other_text?: string;
}

/** How the agent goes on after an approved plan, when the record shows it: by itself, asking before each edit, or in a new conversation. */
export type ApprovalMode = "auto" | "manual" | "fresh";

/** What a plan picker row does (conv.PlanRole). */
export type PlanRole = "approve" | "feedback" | "other";

/** One row of a plan approval picker, with what it does (conv.PlanOption). */
export interface PlanOption {
  label: string;
  role: PlanRole;
  /** How the agent goes on after this approving row, when the row says. */
  mode?: ApprovalMode;
}

export interface Outcome {
  dismissed: boolean;
  results?: QuestionResult[];
  approved?: boolean;
  feedback?: string;
  approval_mode?: ApprovalMode;
}

export type OptionRole = "allow_once" | "allow_always" | "switch_mode" | "deny" | "unknown";

/** One answer a permission prompt offers, as the CLI labels it. */
export interface PermissionOption {
  label: string;
  role: OptionRole;
  /** The option takes text for the agent (a denial saying what to do instead). */
  feedback?: boolean;
}

/** What a permission prompt asks: may the agent make this tool call? */
export interface Permission {
  tool: string;
  title?: string;
  question?: string;
  command?: string;
  description?: string;
  path?: string;
  diff?: string;
  summary?: string;
  options: PermissionOption[];
}

export interface Dialog {
  tool_id: string;
  kind: DialogKind;
  questions?: Question[];
  plan?: string;
  plan_rows?: string[];
  /** The plan picker's rows with what each does; the server always sends them for a pending plan. */
  plan_options?: PlanOption[];
  permission?: Permission;
  answerable: boolean;
  outcome: Outcome | null;
}

/** An image or file a prompt came with (conv.AttachedFile); an image's bytes are at attachmentURL. */
export interface AttachedFile {
  kind: "image" | "file";
  media_type?: string;
  name?: string;
}

export interface Message {
  seq: number;
  kind: Kind;
  role?: Role;
  time?: string;
  text?: string;
  tool?: ToolCall;
  dialog?: Dialog;
  lifecycle?: Lifecycle;
  attachments?: AttachedFile[];
  content_hash: string;
}

/** A file sent to lab for an agent (conv.Upload): lab's name, the type its bytes show. */
export interface Upload {
  upload_id: string;
  name: string;
  media_type: string;
  size: number;
}

/** What a conversation used of its model (conv.Usage); cost_usd is an estimate from the price table of price_date. */
export interface Usage {
  model?: string;
  context_tokens: number;
  /** The model's context window; absent when unknown. */
  context_window?: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  requests: number;
  cost_usd?: number;
  price_date?: string;
  estimate?: boolean;
}

export interface Page {
  transcript_id: string;
  state: State;
  pending_dialog: Dialog | null;
  /** A problem the CLI's screen shows that the stream cannot (a screen lab does not understand). */
  alert?: Lifecycle;
  messages: Message[] | null;
  first_seq: number;
  last_seq: number;
  has_more_before: boolean;
  /** What a working run does now; absent unless working. */
  progress?: Progress | null;
  /** The agent's words its CLI is drawing now (working runs only). */
  live_text?: LiveText | null;
  /** lab's copies of words a CLI drew but never recorded. */
  partials?: Partial[] | null;
  /** What the conversation used of its model; absent until any usage was recorded. */
  usage?: Usage;
  /** The permission mode and model a live run uses now (its transcript and screen). */
  settings?: Settings | null;
}

/** The agent's words a working run's CLI is drawing, before the transcript has them (conv.LiveText). */
export interface LiveText {
  text: string;
  since: string;
  /** They belong after this seq; the agent's text message after it replaces them. */
  after_seq: number;
}

/** lab's copy of words a CLI drew but never recorded, shown after after_seq (conv.Partial). */
export interface Partial {
  after_seq: number;
  text: string;
  time: string;
}

/** Settings is conv.Settings: what a live run's CLI uses now. */
export interface Settings {
  /** A permission mode value of the run's provider. */
  mode?: string;
  model?: string;
}

/** Command is conv.Command: a slash command the run's CLI offers. */
export interface Command {
  /** What follows the slash. */
  name: string;
  description?: string;
  source: "builtin" | "user" | "project";
  /** Whether it takes text after its name. */
  args: "none" | "optional" | "required";
  args_hint?: string;
  /** Why lab does not send it (it opens a screen lab cannot drive). */
  refused?: string;
  /** It starts a new session, which the run follows. */
  new_session?: boolean;
}

/** Progress is conv.Progress: the working row's content. */
export interface Progress {
  /** When the agent started working on this turn. */
  since: string;
  /** The tool running now. */
  tool?: ToolCall;
  /** Set when the turn is stuck (an API error being retried). */
  warning?: Lifecycle;
  /** The slash command the CLI works on ("/compact"), when lab sent one. */
  command?: string;
}

export interface Run {
  /** Unique across machines: a peer's run is "<machine>~<its id>". */
  id: string;
  /** The machine the run lives on (this lab's name, or a peer's). */
  machine?: string;
  provider?: string;
  cwd: string;
  title: string;
  model?: string;
  permission_mode?: string;
  state: State;
  pending: boolean;
  alert?: Lifecycle;
  session_id?: string;
  transcript_path?: string;
  cli_version?: string;
  /** Whether lab was verified against cli_version (false for an unknown version). */
  cli_verified?: boolean;
  started_at: string;
  ended_at?: string;
  archived_at?: string;
  /** How an ended run ended: "stopped", "exited", "detached", … */
  end_reason?: string;
  /** Set when the run follows a CLI process lab did not start. */
  attached?: Attachment;
  /** How much the run wants the operator; the runs list sorts by it. */
  attention?: Attention;
  /** The newest message's time. */
  last_activity?: string;
  /** The last message, one line. */
  preview?: string;
  /** How far the operator has read the run (a page showed its chat). */
  seen_at?: string;
  /** The git worktree the run works in, when it asked for one. */
  worktree?: Worktree;
  /** What its conversation used of its model (GET /runs/{id}, live runs in the list). */
  usage?: Usage;
}

/** Worktree (conv.Worktree): the run's own git worktree and branch. */
export interface Worktree {
  path: string;
  branch: string;
  /** The commit the branch was made from, and the branch HEAD was on then. */
  base: string;
  base_ref?: string;
  /** The repository's main working tree. */
  repo: string;
  /** When lab removed the worktree (the branch stays). */
  removed_at?: string;
  /** The command that merges the branch. */
  merge: string;
}

/** Attachment (conv.Attachment): how lab reaches a process it did not start. */
export interface Attachment {
  pid: number;
  /** "session:%3" on the operator's tmux server. */
  pane?: string;
  /** Why lab can only follow it; absent when it can answer and reply. */
  read_only?: string;
}

/** ExternalSession (conv.ExternalSession): a CLI process lab did not start. */
export interface ExternalSession {
  machine?: string;
  provider: string;
  pid: number;
  session_id: string;
  cwd: string;
  name?: string;
  title?: string;
  cli_version?: string;
  started_at?: string;
  status?: string;
  waiting_for?: string;
  /** A question or plan waits for its operator (whatever status says). */
  pending?: boolean;
  tmux?: { socket: string; pane: string; session?: string };
  read_only?: string;
  transcript_path?: string;
  /** The live run already following it. */
  run_id?: string;
}

/** BulkResult (conv.BulkResult): what a bulk action did and left alone. */
export interface BulkResult {
  done: string[] | null;
  skipped: { id: string; reason: string }[] | null;
}

export type Attention = "blocked" | "your_turn" | "working" | "seen" | "idle" | "ended";

/** PushOptions is store.PushOptions: what a device is told about. */
export interface PushOptions {
  blocked: boolean;
  turn_end: boolean;
  include_content: boolean;
}

/** PushDevice is push.Device: a browser subscribed to Web Push. */
export interface PushDevice {
  id: string;
  name: string;
  /** The push service's host. */
  service: string;
  options: PushOptions;
  created_at: string;
  last_push_at?: string;
  last_error?: string;
}

/** PushSubscriptionData is PushSubscription.toJSON(). */
export interface PushSubscriptionData {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface StartRequest {
  /** The machine to start on (a peer's name); default this lab. */
  machine?: string;
  /** The agent CLI; default: the server's first provider. */
  provider?: string;
  cwd: string;
  prompt?: string;
  model?: string;
  permission_mode?: string;
  /** Work in a new git worktree of the folder's repository, on a branch of its own. */
  worktree?: boolean;
  /** Files for the first prompt, staged with api.upload(null, …). */
  uploads?: string[];
}

export interface Session {
  id: string;
  machine?: string;
  provider?: string;
  project_path: string;
  title: string;
  size: number;
  mtime: string;
  run_id?: string;
  /** The run is live: open it rather than resume the session. */
  run_live?: boolean;
  /** The chat's message count (0 until the server indexed it). */
  messages?: number;
  /** The newest message's time. */
  last_activity?: string;
}

/** A scripted conversation of the demo's model (GET /demo/scenarios), for runs of one provider. */
export interface Scenario {
  provider: string;
  keyword: string;
  summary: string;
  permission_mode?: string;
}

export interface PermissionMode {
  value: string;
  label: string;
  help: string;
}

/** An agent CLI this lab runs (GET /providers). */
export interface ProviderInfo {
  name: string;
  label: string;
  modes: PermissionMode[];
  default_mode?: string;
  resume?: boolean;
  attach?: boolean;
  /** A run may start without a first prompt (the form asks for one otherwise). */
  prompt_optional?: boolean;
  /** The CLI takes photos and files with a prompt. */
  attachments?: boolean;
  /** The modes a live run can be switched to while it waits for input. */
  switch_modes?: string[];
  /** The models a live run can be switched to. */
  models?: ModelChoice[];
}

/** ModelChoice is conv.ModelChoice: a model a run can switch to. */
export interface ModelChoice {
  value: string;
  label: string;
  help?: string;
}

/** GET /sessions (httpapi.SessionList): one page, newest first. */
export interface SessionList {
  sessions: Session[] | null;
  total?: number;
  has_more?: boolean;
  machines?: Machine[];
}

export type MachineStatus = "ok" | "connecting" | "unreachable" | "revoked";

/** Machine is conv.Machine: this lab or a peer whose runs it shows, and whether it answers. */
export interface Machine {
  name: string;
  /** This lab itself. */
  local?: boolean;
  /** A peer's address. */
  url?: string;
  allow_http?: boolean;
  status: MachineStatus;
  /** Since when it is unreachable or refuses the token. */
  since?: string;
  error?: string;
  added_at?: string;
}

/** GET /runs (httpapi.RunList): every machine's runs and the machines. */
export interface RunList {
  runs: Run[] | null;
  machines?: Machine[] | null;
}

/** GET /peers (httpapi.PeerList): this lab's name and its peers. */
export interface PeerList {
  machine: string;
  peers: Machine[] | null;
}

/** POST /peers: the token is write-only, never served back. */
export interface PeerRequest {
  name: string;
  url: string;
  token: string;
  allow_http?: boolean;
}

/** Folder is conv.Folder: one directory the folder picker offers. */
export interface Folder {
  path: string;
  git?: boolean;
  recent?: boolean;
  root?: boolean;
}

/** GET /folders (conv.FolderList). */
export interface FolderList {
  folders: Folder[] | null;
  roots: string[] | null;
  home: string;
  truncated: boolean;
}

export interface QuestionAnswer {
  chosen: number[];
  other_text?: string;
}

/** Answer is conv.Answer: answers for questions, option (+feedback) for plans. */
export interface Answer {
  tool_id: string;
  answers?: QuestionAnswer[];
  option?: number;
  feedback?: string;
}

/** GET /auth/status (httpapi.AuthStatus); login and setup answer it too. */
export interface AuthStatus {
  setup_needed?: boolean;
  /** An earlier draft's name for setup_needed; either is honoured. */
  setup_required?: boolean;
  logged_in: boolean;
  via?: string;
  csrf_token?: string;
}

export interface Event {
  type: string;
  run_id?: string;
  /** machine.changed: the peer whose reachability changed. */
  machine?: string;
  state?: State;
  backpatch_seq?: number;
}

export interface WindowQuery {
  after?: number;
  before?: number;
  limit?: number;
}

/**
 * ApiError is a non-2xx answer: the status and the server's error text;
 * status 0 means the server could not be reached. retryAfter is the
 * Retry-After header in seconds (429), 0 when absent.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter = 0,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** isOffline says whether e is a failure to reach the server at all. */
export function isOffline(e: unknown): boolean {
  return e instanceof ApiError && e.status === 0;
}

/** errorText is the operator-facing text of any thrown value. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

const base = "/api/v1";
let csrf = "";
const unauthorizedListeners = new Set<() => void>();

/** onUnauthorized registers a callback for any 401, so the app can show login. */
export function onUnauthorized(fn: () => void): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

export function setCSRF(token: string | undefined): void {
  csrf = token ?? "";
}

/** call is the one fetch wrapper: JSON in and out, the CSRF header on writes, ApiError on failure. */
/**
 * How long a request may take before it is given up (status 0, like a
 * network failure): a connection a proxy or a dead network keeps open
 * without carrying anything would otherwise hang a request for minutes,
 * and every refresh behind it. Reads are small; writes may wait for a
 * starting CLI (the server answers within its 60 s write timeout).
 */
const readTimeoutMs = 10000;
const writeTimeoutMs = 75000;
/** While connections are in doubt (the event stream was just found dead), reads give up sooner, each one dropping a dead kept connection. */
const doubtfulReadMs = 2500;
let doubtUntil = 0;

/** doubtConnections makes reads give up sooner for a while: kept connections may have died with the stream. */
export function doubtConnections(forMs: number): void {
  doubtUntil = Math.max(doubtUntil, Date.now() + forMs);
}

export async function call<T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown, keepalive = false, idempotencyKey = ""): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (method !== "GET") {
    headers["X-CSRF-Token"] = csrf;
    if (body !== undefined) headers["Content-Type"] = "application/json";
  }
  // The same key on every attempt: lab acts once however often it is sent.
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const ctrl = new AbortController();
  const read = Date.now() < doubtUntil ? doubtfulReadMs : readTimeoutMs;
  const timer = setTimeout(() => ctrl.abort(), method === "GET" ? read : writeTimeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await fetch(base + path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
      keepalive,
      signal: ctrl.signal,
    });
    text = await res.text();
  } catch {
    throw new ApiError(0, ctrl.signal.aborted ? "the lab server did not answer in time" : "cannot reach the lab server");
  } finally {
    clearTimeout(timer);
  }
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!res.ok) {
    const msg =
      data && typeof data === "object" && typeof (data as { error?: unknown }).error === "string"
        ? (data as { error: string }).error
        : `${res.status} ${res.statusText}`;
    if (res.status === 401 && !path.startsWith("/auth/")) unauthorizedListeners.forEach((fn) => fn());
    const wait = Number(res.headers.get("Retry-After") ?? "");
    throw new ApiError(res.status, msg, Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : 0);
  }
  return data as T;
}

/**
 * upload sends a file's bytes as they are (the server sniffs their type
 * and names the file itself): to run `runId`, or staged for a run about to
 * start when null.
 */
async function upload(runId: string | null, file: Blob, name: string): Promise<Upload> {
  const path = (runId ? `/runs/${enc(runId)}/uploads` : "/uploads") + qs({ name });
  let res: Response;
  try {
    res = await fetch(base + path, {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRF-Token": csrf, "Content-Type": file.type || "application/octet-stream" },
      credentials: "same-origin",
      body: file,
    });
  } catch {
    throw new ApiError(0, "cannot reach the lab server");
  }
  const data = (await res.json().catch(() => undefined)) as (Upload & { error?: string }) | undefined;
  if (!res.ok) {
    if (res.status === 401) unauthorizedListeners.forEach((fn) => fn());
    throw new ApiError(res.status, data?.error ?? `${res.status} ${res.statusText}`);
  }
  return data as Upload;
}

/** attachmentURL is where image n of message seq of a run's (or a history session's) chat is served. */
export function attachmentURL(kind: "runs" | "sessions", id: string, seq: number, n: number): string {
  return `${base}/${kind}/${encodeURIComponent(id)}/attachments/${seq}/${n}`;
}

function qs(params: Record<string, string | number | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== "" && !(typeof v === "number" && v <= 0)) u.set(k, String(v));
  }
  const s = u.toString();
  return s ? "?" + s : "";
}

const enc = encodeURIComponent;

export const api = {
  authStatus: async (): Promise<AuthStatus> => {
    const s = await call<AuthStatus>("GET", "/auth/status");
    if (s.csrf_token) setCSRF(s.csrf_token);
    return s;
  },
  /** setup sets the first password with the one-time token; the server logs in too. */
  setup: async (setup_token: string, password: string): Promise<AuthStatus> => {
    const r = await call<AuthStatus>("POST", "/auth/setup", { setup_token, password });
    if (r?.csrf_token) setCSRF(r.csrf_token);
    return r;
  },
  login: async (password: string): Promise<void> => {
    const r = await call<AuthStatus>("POST", "/auth/login", { password });
    setCSRF(r?.csrf_token);
  },
  logout: async (): Promise<void> => {
    await call<unknown>("POST", "/auth/logout");
    setCSRF("");
  },

  /** providers of this lab, or of machine (a peer). */
  providers: async (machine?: string): Promise<ProviderInfo[]> =>
    (await call<{ providers: ProviderInfo[] | null }>("GET", `/providers${qs({ machine })}`)).providers ?? [],
  runs: async (): Promise<Run[]> => (await call<{ runs: Run[] | null }>("GET", "/runs")).runs ?? [],
  /** runList is every machine's runs with the machines and whether each answers. */
  runList: () => call<RunList>("GET", "/runs"),
  archivedRuns: async (): Promise<Run[]> => (await call<{ runs: Run[] | null }>("GET", "/runs?archived=true")).runs ?? [],
  archiveRuns: (ids: string[]) => call<BulkResult>("POST", "/runs/archive", { ids }),
  unarchiveRuns: (ids: string[]) => call<BulkResult>("POST", "/runs/unarchive", { ids }),
  stopIdleRuns: (ids: string[]) => call<BulkResult>("POST", "/runs/stop-idle", { ids }),
  startRun: (req: StartRequest) => call<Run>("POST", "/runs", req),
  resumeRun: (id: string) => call<Run>("POST", `/runs/${enc(id)}/resume`),
  externalSessions: async (): Promise<ExternalSession[]> =>
    (await call<{ sessions: ExternalSession[] | null }>("GET", "/external-sessions")).sessions ?? [],
  attach: (pid: number, provider?: string, machine?: string) => call<Run>("POST", "/runs/attach", { pid, provider, machine }),
  stopRun: (id: string) => call<unknown>("POST", `/runs/${enc(id)}/stop`),
  runMessages: (id: string, q: WindowQuery = {}) =>
    call<Page>("GET", `/runs/${enc(id)}/messages${qs({ ...q })}`),
  run: (id: string) => call<Run>("GET", `/runs/${enc(id)}`),
  /** reply and answer take a key that makes every attempt of one reply or answer land once. */
  reply: (id: string, text: string, uploads?: string[], key = "") =>
    call<unknown>("POST", `/runs/${enc(id)}/reply`, uploads?.length ? { text, uploads } : { text }, false, key),
  upload,
  interrupt: (id: string) => call<unknown>("POST", `/runs/${enc(id)}/interrupt`),
  answer: (id: string, a: Answer, key = "") => call<unknown>("POST", `/runs/${enc(id)}/answer`, a, false, key),
  commands: async (id: string): Promise<Command[]> =>
    (await call<{ commands: Command[] | null }>("GET", `/runs/${enc(id)}/commands`)).commands ?? [],
  /** runCommand runs a slash command as typed at the CLI's prompt. */
  runCommand: (id: string, name: string, args?: string) =>
    call<unknown>("POST", `/runs/${enc(id)}/command`, args ? { name, args } : { name }),
  setMode: (id: string, mode: string) => call<unknown>("POST", `/runs/${enc(id)}/mode`, { mode }),
  setModel: (id: string, model: string) => call<unknown>("POST", `/runs/${enc(id)}/model`, { model }),
  /** seen says this page shows the run's chat now: a finished turn drops to "seen". */
  seen: (id: string) => call<unknown>("POST", `/runs/${enc(id)}/seen`),

  pushKey: async (): Promise<string> => (await call<{ public_key: string }>("GET", "/push/key")).public_key,
  pushDevices: async (): Promise<PushDevice[]> => (await call<{ devices: PushDevice[] | null }>("GET", "/push/devices")).devices ?? [],
  pushSubscribe: (name: string, subscription: PushSubscriptionData) =>
    call<PushDevice>("POST", "/push/devices", { name, subscription }),
  pushUpdate: (id: string, options: PushOptions, name?: string) =>
    call<PushDevice>("POST", `/push/devices/${enc(id)}`, name ? { name, options } : { options }),
  pushUnsubscribe: (id: string) => call<unknown>("DELETE", `/push/devices/${enc(id)}`),
  pushTest: (id: string) => call<unknown>("POST", `/push/devices/${enc(id)}/test`),
  /** pushPresence survives the page going away (keepalive), so "hidden" arrives. */
  pushPresence: (device_id: string, run_id: string, visible: boolean) =>
    call<unknown>("POST", "/push/presence", { device_id, run_id, visible }, true),
  folders: (q: string, limit: number, machine?: string) => call<FolderList>("GET", `/folders${qs({ q, limit, machine })}`),

  sessions: (q: string, limit: number, offset: number) =>
    call<SessionList>("GET", `/sessions${qs({ q, limit, offset })}`),
  session: (id: string) => call<Session>("GET", `/sessions/${enc(id)}`),
  resumeSession: (id: string) => call<Run>("POST", `/sessions/${enc(id)}/resume`),
  sessionMessages: (id: string, q: WindowQuery = {}) =>
    call<Page>("GET", `/sessions/${enc(id)}/messages${qs({ ...q })}`),
  /** The demo's scenarios; rejects with 404 on a server with a real model. */
  scenarios: async (machine?: string): Promise<Scenario[]> =>
    (await call<{ scenarios: Scenario[] | null }>("GET", `/demo/scenarios${qs({ machine })}`)).scenarios ?? [],

  peers: () => call<PeerList>("GET", "/peers"),
  addPeer: (p: PeerRequest) => call<Machine>("POST", "/peers", p),
  removePeer: (name: string) => call<unknown>("DELETE", `/peers/${enc(name)}`),
};

export const eventsURL = base + "/events";
