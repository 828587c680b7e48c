// The terminal stream of a run (GET /api/v1/runs/{id}/terminal), read with
// fetch rather than EventSource: a refused stream (the run ended, lab can
// only follow it) says why in its JSON body, which EventSource hides. A
// stream that drops is opened again; each opening starts from a new
// screen, so nothing is missed.

import { bytesOf } from "./input";

/** A screen to start from: the pane's size and the bytes that draw it. */
export interface Screen {
  cols: number;
  rows: number;
  data: Uint8Array;
}

export interface StreamHandlers {
  screen(s: Screen): void;
  output(b: Uint8Array): void;
  /** The pane closed, or lab refused the stream (fatal); or it dropped and will be tried again. */
  trouble(message: string, fatal: boolean): void;
}

export interface Frame {
  event: string;
  data: string;
}

/** sseFrames splits buffered stream text into whole events and what is left over. */
export function sseFrames(buf: string): { frames: Frame[]; rest: string } {
  const frames: Frame[] = [];
  let at = 0;
  for (;;) {
    const end = buf.indexOf("\n\n", at);
    if (end < 0) break;
    let event = "message";
    const data: string[] = [];
    for (const line of buf.slice(at, end).split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length) frames.push({ event, data: data.join("\n") });
    at = end + 2;
  }
  return { frames, rest: buf.slice(at) };
}

/** openTerminal streams run id's pane into h until the returned function is called. */
export function openTerminal(url: string, h: StreamHandlers): () => void {
  const stop = new AbortController();
  let wait = 1000;
  const run = async () => {
    while (!stop.signal.aborted) {
      let res: Response;
      try {
        res = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/event-stream" }, signal: stop.signal });
      } catch {
        if (stop.signal.aborted) return;
        h.trouble("Cannot reach the lab server. Retrying…", false);
        await pause(wait, stop.signal);
        wait = Math.min(wait * 2, 10000);
        continue;
      }
      if (!res.ok) {
        const msg = await res
          .json()
          .then((b: { error?: string }) => b.error ?? "")
          .catch(() => "");
        const fatal = res.status === 404 || res.status === 409 || res.status === 401;
        h.trouble(msg || `${res.status} ${res.statusText}`, fatal);
        if (fatal) return;
        await pause(wait, stop.signal);
        continue;
      }
      wait = 1000;
      if (await read(res, h, stop.signal)) return; // the pane closed
      if (!stop.signal.aborted) h.trouble("The terminal stream dropped. Reconnecting…", false);
      await pause(500, stop.signal);
    }
  };
  void run();
  return () => stop.abort();
}

/** read feeds one stream's events to h; true when it ended for good. */
async function read(res: Response, h: StreamHandlers, signal: AbortSignal): Promise<boolean> {
  const reader = res.body!.getReader();
  const text = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || signal.aborted) return false;
      const got = sseFrames(buf + text.decode(value, { stream: true }));
      buf = got.rest;
      for (const f of got.frames) {
        if (f.event === "output") h.output(bytesOf(f.data));
        else if (f.event === "screen") {
          const s = JSON.parse(f.data) as { cols: number; rows: number; data: string };
          h.screen({ cols: s.cols, rows: s.rows, data: bytesOf(s.data) });
        } else if (f.event === "end") {
          h.trouble((JSON.parse(f.data) as { reason: string }).reason, true);
          return true;
        }
      }
    }
  } catch {
    return false;
  } finally {
    reader.cancel().catch(() => {});
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((ok) => {
    const t = setTimeout(ok, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), ok()), { once: true });
  });
}
