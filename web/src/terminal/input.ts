// What the terminal view sends to a run's pane (POST .../terminal/input):
// text typed as keystrokes, then named keys from the server's allow-list
// (conv.TerminalKeys). Keys a desktop keyboard types into the terminal
// itself arrive as the bytes a terminal would send; inputsOf maps them to
// that shape and drops whatever the allow-list has no name for.

export interface TerminalInput {
  text?: string;
  keys?: string[];
}

/** A key of the key bar: its label, its tmux name, what a screen reader says. */
export interface BarKey {
  label: string;
  key: string;
  name: string;
}

export const barKeys: BarKey[] = [
  { label: "Esc", key: "Escape", name: "Escape" },
  { label: "Tab", key: "Tab", name: "Tab" },
  { label: "⇧Tab", key: "BTab", name: "Shift+Tab" },
  { label: "←", key: "Left", name: "Left" },
  { label: "↑", key: "Up", name: "Up" },
  { label: "↓", key: "Down", name: "Down" },
  { label: "→", key: "Right", name: "Right" },
  { label: "⏎", key: "Enter", name: "Enter" },
  { label: "^C", key: "C-c", name: "Ctrl+C" },
  { label: "⌫", key: "BSpace", name: "Backspace" },
];

/** The escape sequences a terminal sends for the bar's keys. */
const sequences: Record<string, string> = {
  "\x1b[A": "Up",
  "\x1b[B": "Down",
  "\x1b[C": "Right",
  "\x1b[D": "Left",
  "\x1bOA": "Up",
  "\x1bOB": "Down",
  "\x1bOC": "Right",
  "\x1bOD": "Left",
  "\x1b[Z": "BTab",
};

const controls: Record<string, string> = { "\r": "Enter", "\n": "Enter", "\t": "Tab", "\x7f": "BSpace", "\b": "BSpace", "\x03": "C-c" };

/**
 * inputsOf maps bytes a terminal would send to inputs the API takes, in
 * order: runs of text, then the keys after them. Other control bytes and
 * escape sequences (function keys, mouse reports) are dropped.
 */
export function inputsOf(data: string): TerminalInput[] {
  const out: TerminalInput[] = [];
  let cur: TerminalInput = {};
  const flush = () => {
    if (cur.text || cur.keys?.length) out.push(cur);
    cur = {};
  };
  const key = (k: string) => (cur.keys ??= []).push(k);
  for (let i = 0; i < data.length; ) {
    const c = data.charAt(i);
    if (c === "\x1b") {
      const seq = escapeAt(data, i);
      const k = seq.length === 1 ? "Escape" : sequences[seq];
      if (k) key(k);
      i += seq.length;
      continue;
    }
    const code = c.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) {
      if (controls[c]) key(controls[c]);
      i++;
      continue;
    }
    if (cur.keys?.length) flush(); // text typed after keys is a new input
    cur.text = (cur.text ?? "") + c;
    i++;
  }
  flush();
  return out;
}

/** escapeAt is the escape sequence starting at data[i] (an ESC): CSI, SS3, or ESC alone. */
function escapeAt(data: string, i: number): string {
  const next = data[i + 1];
  if (next === "[") {
    let j = i + 2;
    while (j < data.length && /[0-9;?<=>]/.test(data.charAt(j))) j++;
    return data.slice(i, Math.min(j + 1, data.length));
  }
  if (next === "O" && i + 2 < data.length) return data.slice(i, i + 3);
  return "\x1b";
}

/** bytesOf decodes an output event's base64 into the bytes the CLI wrote. */
export function bytesOf(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** fontFor is the font size (px) that shows cols columns in width px, kept readable: never below min (the sheet pans instead). */
export function fontFor(width: number, cols: number, min = 10, max = 15): number {
  // A monospace cell is about 0.6 of the font size wide.
  const fit = Math.floor((width / (cols * 0.6)) * 2) / 2;
  return Math.max(min, Math.min(max, fit));
}
