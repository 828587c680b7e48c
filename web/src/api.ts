// The typed client of lab's JSON API: a mirror of the Go types in
// internal/conv (keep the two in step) and the one fetch wrapper that adds
// the session cookie, the CSRF header and error decoding. Nothing else in the
// app calls fetch.

export type Kind = "text" | "thinking" | "tool" | "dialog" | "lifecycle";
export type Role = "user" | "assistant";
export type State = "working" | "question" | "needs_input" | "idle" | "ended";
export type ToolStatus = "running" | "ok" | "error";
export type Level = "info" | "warning" | "error";
export type DialogKind = "question" | "plan";

export interface ToolCall {
  id: string;
  name: string;
  input: string;
  status: ToolStatus;
  output?: string;
  output_bytes?: number;
  output_truncated?: boolean;
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

export interface Outcome {
  dismissed: boolean;
  results?: QuestionResult[];
  approved?: boolean;
  feedback?: string;
}

export interface Dialog {
  tool_id: string;
  kind: DialogKind;
  questions?: Question[];
  plan?: string;
  plan_rows?: string[];
  answerable: boolean;
  outcome: Outcome | null;
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
  content_hash: string;
}

export interface Page {
  transcript_id: string;
  state: State;
  pending_dialog: Dialog | null;
  messages: Message[] | null;
  first_seq: number;
  last_seq: number;
  has_more_before: boolean;
}

export interface Run {
  id: string;
  cwd: string;
  title: string;
  model?: string;
  permission_mode?: string;
  state: State;
  pending: boolean;
  session_id?: string;
  transcript_path?: string;
  cli_version?: string;
  /** Whether lab was verified against cli_version (false for an unknown version). */
  cli_verified?: boolean;
  started_at: string;
  ended_at?: string;
}

export interface StartRequest {
  cwd: string;
  prompt?: string;
  model?: string;
  permission_mode?: string;
}

export interface Session {
  id: string;
  project_path: string;
  title: string;
  size: number;
  mtime: string;
  run_id?: string;
}

/** GET /sessions (httpapi.SessionList): one page, newest first. */
export interface SessionList {
  sessions: Session[] | null;
  total?: number;
  has_more?: boolean;
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
  state?: State;
  backpatch_seq?: number;
}

export interface WindowQuery {
  after?: number;
  before?: number;
  limit?: number;
}

/** ApiError is a non-2xx answer: the status and the server's error text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
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

async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (method === "POST") {
    headers["X-CSRF-Token"] = csrf;
    if (body !== undefined) headers["Content-Type"] = "application/json";
  }
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "cannot reach the lab server");
  }
  const text = await res.text();
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
    throw new ApiError(res.status, msg);
  }
  return data as T;
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

  runs: async (): Promise<Run[]> => (await call<{ runs: Run[] | null }>("GET", "/runs")).runs ?? [],
  startRun: (req: StartRequest) => call<Run>("POST", "/runs", req),
  stopRun: (id: string) => call<unknown>("POST", `/runs/${enc(id)}/stop`),
  runMessages: (id: string, q: WindowQuery = {}) =>
    call<Page>("GET", `/runs/${enc(id)}/messages${qs({ ...q })}`),
  reply: (id: string, text: string) => call<unknown>("POST", `/runs/${enc(id)}/reply`, { text }),
  interrupt: (id: string) => call<unknown>("POST", `/runs/${enc(id)}/interrupt`),
  answer: (id: string, a: Answer) => call<unknown>("POST", `/runs/${enc(id)}/answer`, a),

  sessions: (q: string, limit: number, offset: number) =>
    call<SessionList>("GET", `/sessions${qs({ q, limit, offset })}`),
  sessionMessages: (id: string, q: WindowQuery = {}) =>
    call<Page>("GET", `/sessions/${enc(id)}/messages${qs({ ...q })}`),
};

export const eventsURL = base + "/events";
