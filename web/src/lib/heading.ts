// What the header of a run or a history session says: a title that is
// never the folder twice, and a line under it with what the title leaves
// out.

import type { Run, Session } from "../api";
import { ago, baseName } from "./format";

export interface Heading {
  title: string;
  sub: string;
}

/**
 * runHeading names a run by its prompt, with the folder's name below. A
 * run started without a prompt is titled by its folder, and then the line
 * below gives the full path rather than the same name again.
 */
export function runHeading(r: Pick<Run, "title" | "cwd"> | null | undefined): Heading {
  if (!r) return { title: "Run", sub: "" };
  const folder = baseName(r.cwd);
  const title = r.title.trim() || folder || "Run";
  return { title, sub: title === folder ? r.cwd : folder };
}

/** sessionHeading names a history session by its first prompt, with its folder and id below. */
export function sessionHeading(s: Pick<Session, "title" | "project_path" | "id"> | null | undefined, id: string): Heading {
  const short = id.slice(0, 8);
  if (!s) return { title: "History", sub: short };
  return { title: s.title.trim() || "(no prompt)", sub: `${baseName(s.project_path)} · ${short}` };
}

/** sessionLine is a history row's second line: folder, message count, last activity. */
export function sessionLine(s: Session, now = Date.now()): string {
  const parts = [baseName(s.project_path)];
  if (s.messages && s.messages > 0) parts.push(`${s.messages} message${s.messages === 1 ? "" : "s"}`);
  const when = ago(s.last_activity || s.mtime, now);
  if (when) parts.push(when === "now" ? "active now" : `${when} ago`);
  return parts.join(" · ");
}
