// How an expanded tool chip lays out the call's input.

import type { ToolCall } from "../api";

/**
 * inputParts decides how an expanded chip shows its input. With a detail
 * that continues the one-line summary (a long command), the detail alone
 * is the input; with a detail of its own (a file's content) the summary
 * names it and the detail is the content; with none, the summary is the
 * input.
 */
export function inputParts(t: ToolCall): { head: string; body: string; bodyLabel: string } {
  const summary = t.input ?? "";
  const detail = t.detail ?? "";
  if (!detail) return { head: "", body: summary, bodyLabel: "Input" };
  const lead = summary.replace(/\s*…$/, "").trim();
  if (lead === "" || detail.trimStart().startsWith(lead)) return { head: "", body: detail, bodyLabel: "Input" };
  return { head: summary, body: detail, bodyLabel: "Content" };
}
