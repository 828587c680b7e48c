// Slash commands in the composer: which text is a command line, which of
// the run's commands the menu offers for what is typed, and where Send
// takes the text: a listed command runs as the CLI would at its prompt;
// anything else (a word no command has) is sent as chat text, and so is a
// command line the operator chose to send as text.

import type { Command } from "../api";

/** SlashLine is a command line: "/" + name, then its text. */
export interface SlashLine {
  name: string;
  args: string;
}

/** parseSlash reads a composer text that is one slash command line, else null. */
export function parseSlash(text: string): SlashLine | null {
  const t = text.trim();
  if (!t.startsWith("/") || t.includes("\n")) return null;
  const m = /^\/(\S+)(?:\s+([^]*))?$/.exec(t);
  return m ? { name: m[1] ?? "", args: (m[2] ?? "").trim() } : null;
}

/** typing is the command name being typed ("" after a lone "/"), or null once the text is past the name or is no command line. */
export function typing(text: string): string | null {
  const m = /^\/(\S*)$/.exec(text);
  return m ? (m[1] ?? "") : null;
}

/**
 * menuMatches are the commands the menu offers while name is typed: those
 * whose names start with it, then those that contain it elsewhere, the
 * ones lab sends before the ones it refuses, each group in the order the
 * server lists them (the operator's and the project's own first).
 */
export function menuMatches(list: readonly Command[], name: string): Command[] {
  const q = name.toLowerCase();
  const rank = (c: Command) => {
    const n = c.name.toLowerCase();
    const at = n.startsWith(q) ? 0 : q && n.includes(q) ? 2 : -1;
    return at < 0 ? -1 : at + (c.refused ? 1 : 0);
  };
  const groups: Command[][] = [[], [], [], []];
  for (const c of list) {
    const r = rank(c);
    if (r >= 0) groups[r]!.push(c);
  }
  return groups.flat();
}

/** Route is where Send takes the composer's text. */
export type Route = { kind: "text" } | { kind: "command"; command: Command; args: string };

/**
 * route decides Send: a command line naming a listed command runs it (a
 * refused one too: the server says why, and the text stays); anything
 * else is chat text. With the list not loaded (null) a command line goes
 * to the server as a command, which refuses an unknown one.
 */
export function route(list: readonly Command[] | null, text: string): Route {
  const line = parseSlash(text);
  if (!line) return { kind: "text" };
  if (list === null) return { kind: "command", command: { name: line.name, source: "builtin", args: "optional" }, args: line.args };
  const command = list.find((c) => c.name === line.name);
  return command ? { kind: "command", command, args: line.args } : { kind: "text" };
}

/** fill is the composer text that picking c leaves: its line, ready for its text when it takes some. */
export function fill(c: Command): string {
  return "/" + c.name + (c.args === "none" ? "" : " ");
}
