// A unified diff as rows with their line numbers, for the changes view:
// hunk headers say where each hunk starts on both sides, and every row
// after counts on the side(s) it belongs to.

export type RowKind = "hunk" | "add" | "del" | "ctx" | "note";

export interface DiffRow {
  kind: RowKind;
  /** The line's number in the old file (del, ctx) and in the new one (add, ctx). */
  old?: number;
  new?: number;
  /** The line without its +/-/space mark; a hunk's header; a note's text. */
  text: string;
}

const hunkRE = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

/** diffRows reads a unified diff (its ---/+++ header skipped). */
export function diffRows(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  for (const line of diff.split("\n")) {
    const h = hunkRE.exec(line);
    if (h) {
      oldNo = Number(h[1]);
      newNo = Number(h[2]);
      inHunk = true;
      rows.push({ kind: "hunk", text: line });
      continue;
    }
    if (!inHunk) continue; // the --- and +++ lines
    if (line.startsWith("+")) rows.push({ kind: "add", new: newNo++, text: line.slice(1) });
    else if (line.startsWith("-")) rows.push({ kind: "del", old: oldNo++, text: line.slice(1) });
    else if (line.startsWith(" ")) rows.push({ kind: "ctx", old: oldNo++, new: newNo++, text: line.slice(1) });
    else if (line.startsWith("\\")) rows.push({ kind: "note", text: line.slice(2) });
  }
  return rows;
}

/** commentText is the reply a comment on a diff line sends: where, the line quoted, the note. */
export function commentText(path: string, row: DiffRow, note: string): string {
  const where = row.kind === "del" ? `${path}:${row.old} (a removed line)` : `${path}:${row.new}`;
  return `Comment on ${where}:\n> ${row.text}\n\n${note.trim()}`;
}

/** statusMark is the one-letter mark of a file's change. */
export function statusMark(status: string): string {
  return { added: "A", modified: "M", deleted: "D", renamed: "R" }[status] ?? "?";
}
