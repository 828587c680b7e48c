import { describe, expect, it } from "vitest";
import type { Dialog, Message } from "../api";
import type { Item } from "./placement";
import { cardToolId, ItemCache, placeItems } from "./placement";
import { dialogMsg, plan, question, text } from "./testdata";

const shape = (items: Item[]) =>
  items.map((it) => (it.kind === "card" ? `card:${it.dialog.tool_id}@${it.seq}` : it.kind === "partial" ? `p>${it.partial.after_seq}` : `m${it.message.seq}`));

describe("placeItems", () => {
  const answered = { dismissed: false, results: [{ question: "Which database?", chosen: ["SQLite"] }] };
  const cases: { name: string; msgs: ReturnType<typeof text>[]; pending: ReturnType<typeof question> | null; want: string[] }[] = [
    { name: "no dialog", msgs: [text(1), text(2)], pending: null, want: ["m1", "m2"] },
    { name: "pending matched in place", msgs: [text(1), dialogMsg(2, question("t1")), text(3)], pending: question("t1"), want: ["m1", "card:t1@2", "m3"] },
    { name: "pending not in stream is appended", msgs: [text(1), text(2)], pending: question("t9"), want: ["m1", "m2", "card:t9@0"] },
    { name: "other dialog ids do not match", msgs: [text(1), dialogMsg(2, question("t1", answered))], pending: plan("p2"), want: ["m1", "m2", "card:p2@0"] },
    {
      name: "duplicate dialog messages render once",
      msgs: [dialogMsg(1, question("t1")), text(2), dialogMsg(3, question("t1"))],
      pending: question("t1"),
      want: ["card:t1@1", "m2"],
    },
    {
      name: "duplicate answered dialog renders once",
      msgs: [dialogMsg(1, question("t1", answered)), dialogMsg(2, question("t1", answered))],
      pending: null,
      want: ["m1"],
    },
    {
      name: "stream already answered: no card, summary stays",
      msgs: [text(1), dialogMsg(2, question("t1", answered))],
      pending: question("t1"),
      want: ["m1", "m2"],
    },
    { name: "pending with an outcome is not a card", msgs: [text(1)], pending: question("t1", answered), want: ["m1"] },
    { name: "empty stream with pending", msgs: [], pending: plan("p1"), want: ["card:p1@0"] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(shape(placeItems(c.msgs, c.pending))).toEqual(c.want);
    });
  }

  it("places lab's copies of unrecorded words after the message they followed", () => {
    const p = (after: number) => ({ after_seq: after, text: "partial " + after, time: "" });
    expect(shape(placeItems([text(4), text(5), text(7)], null, [p(1), p(3), p(5), p(7), p(9)]))).toEqual(["p>3", "m4", "m5", "p>5", "m7", "p>7", "p>9"]);
    expect(shape(placeItems([text(1)], question("t9"), [p(1)]))).toEqual(["m1", "p>1", "card:t9@0"]);
    expect(shape(placeItems([], null, [p(0)]))).toEqual(["p>0"]);
  });

  it("the card carries the side-channel dialog, not the stream copy", () => {
    const side = question("t1");
    side.questions![0]!.question = "fresher text";
    const items = placeItems([dialogMsg(1, question("t1"))], side);
    expect(items[0]!.kind === "card" && items[0]!.dialog).toBe(side);
    expect(cardToolId(items)).toBe("t1");
    expect(cardToolId(placeItems([text(1)], null))).toBe("");
  });
});

describe("permission prompts", () => {
  const perm = (id: string): Dialog => ({
    tool_id: id,
    kind: "permission",
    answerable: true,
    outcome: null,
    permission: { tool: "RunCommand", command: "touch x", options: [{ label: "Yes", role: "allow_once" }] },
  });
  const chip = (seq: number, id: string, status: "running" | "ok" | "error"): Message => ({
    seq,
    kind: "tool",
    tool: { id, name: "RunCommand", input: "touch x", status },
    content_hash: "h" + seq + status,
  });
  it("go right after their running chip", () => {
    const items = placeItems([text(1), chip(2, "t1", "running"), text(3)], perm("t1"));
    expect(items.map((it) => it.key)).toEqual(["m:1", "m:2", "card:t1", "m:3"]);
  });
  it("are appended before their chip is folded", () => {
    expect(placeItems([text(1)], perm("t1")).map((it) => it.key)).toEqual(["m:1", "card:t1"]);
  });
  it("never show once the chip has its result", () => {
    expect(placeItems([chip(1, "t1", "ok")], perm("t1")).map((it) => it.key)).toEqual(["m:1"]);
  });
});

describe("ItemCache", () => {
  it("keeps item identity while messages and the card are unchanged", () => {
    const cache = new ItemCache();
    const msgs = [text(1), text(2)];
    const a = cache.stabilize(placeItems(msgs, question("t1")));
    const b = cache.stabilize(placeItems(msgs, question("t1")));
    expect(b[0]).toBe(a[0]);
    expect(b[2], "an equal card (fresh JSON) keeps its item").toBe(a[2]);
    const changed = question("t1");
    changed.questions![0]!.options.push({ label: "Oracle" });
    const moved = cache.stabilize(placeItems([...msgs, dialogMsg(3, question("t1"))], question("t1")));
    expect(moved.map((it) => it.key)).toEqual(["m:1", "m:2", "card:t1"]);
    expect(moved[2], "a card moving from appended to its place keeps its item").toBe(a[2]);
    const c = cache.stabilize(placeItems(msgs, changed));
    expect(c[2], "a changed card gets a new item").not.toBe(a[2]);
    expect(c[1]).toBe(a[1]);
  });
});
