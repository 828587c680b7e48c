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

/**
 * withoutKeyHint drops the CLI's keyboard hints from a label ("… for this
 * session (shift+tab)", "No (esc)"): on a phone they are noise, and lab
 * presses the keys itself.
 */
export function withoutKeyHint(label: string): string {
  return label.replace(/\s*\((?:shift|ctrl|alt|option|cmd|meta|esc|tab|enter|return)\b[^()]*\)/gi, "").trim();
}

/** relPath shows path relative to the run's folder when it lies inside it. */
export function relPath(path: string, folder: string | undefined): string {
  const f = (folder ?? "").replace(/\/+$/, "");
  if (!f) return path;
  if (path === f) return ".";
  return path.startsWith(f + "/") ? path.slice(f.length + 1) : path;
}

/** diffBody is a unified diff without its file header lines: the card names the file once, above it. */
export function diffBody(diff: string): string {
  const lines = diff.split("\n");
  let i = 0;
  while (i < lines.length && (lines[i]!.startsWith("--- ") || lines[i]!.startsWith("+++ "))) i++;
  return lines.slice(i).join("\n");
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
