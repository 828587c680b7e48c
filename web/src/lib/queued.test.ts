import { describe, expect, it } from "vitest";
import type { Message } from "../api";
import { sameText, settle, type Queued } from "./queued";

const user = (seq: number, text: string): Message => ({ seq, kind: "text", role: "user", text, content_hash: String(seq) });
const bot = (seq: number, text: string): Message => ({ seq, kind: "text", role: "assistant", text, content_hash: String(seq) });

describe("queued replies", () => {
  const q = (id: number, text: string, afterSeq: number): Queued => ({ id, text, afterSeq, queued: true });

  it("stays until the transcript shows the reply", () => {
    const queue = [q(1, "also add tests", 4)];
    expect(settle(queue, [user(1, "start"), bot(4, "working")])).toBe(queue);
    expect(settle(queue, [user(1, "also add tests"), bot(4, "working")])).toBe(queue); // an older message with the same text
    expect(settle(queue, [bot(4, "working"), bot(5, "also add tests")])).toBe(queue); // not the operator's
    expect(settle(queue, [bot(4, "working"), user(5, "also  add\ntests ")])).toEqual([]);
  });

  it("settles one bubble per message, oldest first", () => {
    const queue = [q(1, "again", 2), q(2, "again", 2), q(3, "other", 2)];
    expect(settle(queue, [user(3, "again")]).map((x) => x.id)).toEqual([2, 3]);
    expect(settle(queue, [user(3, "again"), user(5, "again"), user(6, "other")])).toEqual([]);
  });

  it("compares whitespace loosely", () => {
    expect(sameText("a\tb\n", "a b")).toBe(true);
    expect(sameText("a b", "ab")).toBe(false);
  });
});
