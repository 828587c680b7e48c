// Where the pending dialog goes in the chat stream.
//
// A permission prompt is about a tool call the stream shows as a chip: its
// card goes right after that chip (matched by tool_id), else appended.
//
// The server serves the pending dialog beside the stream (pending_dialog),
// never inside it, so seqs stay reparse-stable. The client places it: as an
// interactive card at its dialog message's position when the stream holds a
// dialog message with the same tool_id, else appended after the last
// message. Everything is deduplicated by tool_id, so one dialog never
// renders twice, whatever the transcript and the hook spool say.

import type { Dialog, Message, Partial } from "../api";

export type Item =
  | { kind: "message"; key: string; message: Message }
  /** The interactive card for the pending dialog. seq is its stream position, 0 when appended. */
  | { kind: "card"; key: string; dialog: Dialog; seq: number }
  /** lab's copy of words the CLI drew but never recorded, after the message at its after_seq. */
  | { kind: "partial"; key: string; partial: Partial };

/**
 * placeItems builds the rendered sequence. A stream dialog message that
 * matches the pending dialog's tool_id is replaced by the card at its
 * position, unless the stream already records an outcome for it: then the
 * side channel is stale, the answered summary shows and no card does.
 * Later dialog messages repeating a tool_id already shown are dropped.
 */
export function placeItems(messages: readonly Message[], pending: Dialog | null, partials: readonly Partial[] = []): Item[] {
  const items: Item[] = [];
  const shown = new Set<string>();
  const live = pending && pending.outcome == null ? pending : null;
  let cardPlaced = false;
  // Partials go after the message they followed: those of the window's
  // messages, and those after its last (an interrupted last turn).
  const first = messages.length ? messages[0]!.seq : 0;
  let next = partials.findIndex((p) => p.after_seq >= first - 1);
  if (next < 0) next = partials.length;
  const partialsUpTo = (seq: number) => {
    for (; next < partials.length && partials[next]!.after_seq <= seq; next++) {
      const p = partials[next]!;
      items.push({ kind: "partial", key: "p:" + p.after_seq, partial: p });
    }
  };
  partialsUpTo(first - 1);
  for (const m of messages) {
    partialsUpTo(m.seq - 1);
    if (m.kind === "dialog" && m.dialog) {
      const id = m.dialog.tool_id;
      if (id && shown.has(id)) continue;
      if (id) shown.add(id);
      if (live && id === live.tool_id) {
        if (m.dialog.outcome == null) {
          items.push({ kind: "card", key: "card:" + id, dialog: live, seq: m.seq });
        } else {
          items.push({ kind: "message", key: "m:" + m.seq, message: m });
        }
        cardPlaced = true;
        continue;
      }
    }
    items.push({ kind: "message", key: "m:" + m.seq, message: m });
    if (live && !cardPlaced && live.kind === "permission" && m.kind === "tool" && m.tool?.id === live.tool_id) {
      if (m.tool.status === "running") items.push({ kind: "card", key: "card:" + live.tool_id, dialog: live, seq: m.seq });
      cardPlaced = true; // a chip with a result: the prompt is over, the side channel is stale
    }
  }
  partialsUpTo(Number.MAX_SAFE_INTEGER);
  if (live && !cardPlaced) items.push({ kind: "card", key: "card:" + live.tool_id, dialog: live, seq: 0 });
  return items;
}

/** cardToolId returns the tool_id of the card among items, or "". */
export function cardToolId(items: readonly Item[]): string {
  for (const it of items) if (it.kind === "card") return it.dialog.tool_id;
  return "";
}

/**
 * ItemCache keeps item objects stable across rebuilds so a keyed renderer
 * reuses DOM: a message item lives as long as its message object (merge
 * keeps unchanged messages by identity), and the card item as long as its
 * dialog's content is unchanged, wherever it sits. The card often moves
 * from appended (served by the hook spool) to its dialog message's place
 * (once the transcript line is folded); keeping its item moves the DOM
 * node instead of remounting it, so a half-filled answer survives. The
 * reused item's seq is then stale; rendering never reads it.
 */
export class ItemCache {
  private byMessage = new WeakMap<Message, Item>();
  private partials = new Map<string, Item>();
  private card: { item: Item; sig: string } | null = null;

  stabilize(items: Item[]): Item[] {
    return items.map((it) => {
      if (it.kind === "partial") {
        const old = this.partials.get(it.key);
        if (old?.kind === "partial" && old.partial.text === it.partial.text) return old;
        this.partials.set(it.key, it);
        return it;
      }
      if (it.kind === "message") {
        const old = this.byMessage.get(it.message);
        if (old) return old;
        this.byMessage.set(it.message, it);
        return it;
      }
      const sig = JSON.stringify(it.dialog);
      if (this.card && this.card.sig === sig) return this.card.item;
      this.card = { item: it, sig };
      return it;
    });
  }
}
