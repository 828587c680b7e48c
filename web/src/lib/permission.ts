// Permission prompts: may the agent make this tool call? The options are
// the CLI's own, read off its screen by the server; this file words them
// plainly (the CLI's label stays as the detail) and builds the answers.

import type { Answer, Decision, Dialog, PermissionOption } from "../api";

/** plainOption is an option in plain words, by what it does. */
export function plainOption(o: PermissionOption): string {
  switch (o.role) {
    case "allow_once":
      return "Allow once";
    case "allow_always":
      return "Always allow";
    case "switch_mode":
      return "Allow, and change mode";
    case "deny":
      return "Deny";
  }
  return o.label;
}

/** answerable reports whether lab can choose the option (its role is known). */
export function answerable(o: PermissionOption): boolean {
  return o.role !== "unknown";
}

/** permissionAnswer is the payload choosing option i, with feedback for a denial that takes it. */
export function permissionAnswer(d: Dialog, i: number, feedback = ""): Answer {
  const o = d.permission?.options[i];
  if (d.kind !== "permission" || !o) throw new Error("no such option");
  if (!answerable(o)) throw new Error(`lab cannot tell what "${o.label}" does; answer it at the terminal`);
  const a: Answer = { tool_id: d.tool_id, option: i };
  const text = feedback.trim();
  if (text !== "") {
    if (!o.feedback) throw new Error(`"${o.label}" takes no feedback`);
    if (/[\r\n]/.test(feedback)) throw new Error("feedback must be one line");
    a.feedback = feedback;
  }
  return a;
}

/** denyIndex is the index of the denial that takes feedback, else of any denial, else -1. */
export function denyIndex(d: Dialog): number {
  const opts = d.permission?.options ?? [];
  const withText = opts.findIndex((o) => o.role === "deny" && o.feedback);
  return withText >= 0 ? withText : opts.findIndex((o) => o.role === "deny");
}

/** decisionText words a tool chip's recorded decision. */
export function decisionText(d: Decision): string {
  if (!d.allowed) return d.feedback ? `denied: “${d.feedback}”` : "denied";
  return d.scope === "always" ? "always allowed" : "allowed once";
}

/** diffLineClass classes one line of a unified diff for colouring. */
export function diffLineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "d-file";
  if (line.startsWith("@@")) return "d-hunk";
  if (line.startsWith("+")) return "d-add";
  if (line.startsWith("-")) return "d-del";
  return "d-ctx";
}
