import { describe, expect, it } from "vitest";
import { emptyWindow, firstSeq, lastSeq, mergeWindow, type Window } from "./merge";
import { text } from "./testdata";

const win = (seqs: number[], more = false): Window => ({ messages: seqs.map((s) => text(s)), hasMoreBefore: more });
const seqs = (w: Window) => w.messages.map((m) => m.seq);

describe("mergeWindow", () => {
  const cases: { name: string; cur: Window; inc: number[]; incMore: boolean; want: number[]; wantMore: boolean }[] = [
    { name: "into empty", cur: emptyWindow, inc: [5, 6, 7], incMore: true, want: [5, 6, 7], wantMore: true },
    { name: "append after", cur: win([1, 2, 3]), inc: [4, 5], incMore: true, want: [1, 2, 3, 4, 5], wantMore: false },
    { name: "overlapping tail", cur: win([1, 2, 3]), inc: [2, 3, 4], incMore: true, want: [1, 2, 3, 4], wantMore: false },
    { name: "older window prepends", cur: win([10, 11], true), inc: [7, 8, 9], incMore: false, want: [7, 8, 9, 10, 11], wantMore: false },
    { name: "older window keeps more flag", cur: win([10, 11], true), inc: [8, 9], incMore: true, want: [8, 9, 10, 11], wantMore: true },
    { name: "gap replaces", cur: win([1, 2, 3]), inc: [50, 51], incMore: true, want: [50, 51], wantMore: true },
    { name: "gap from seq 1 has nothing before", cur: win([5, 6]), inc: [], incMore: false, want: [5, 6], wantMore: false },
    { name: "unsorted and duplicate incoming", cur: win([1]), inc: [3, 2, 3], incMore: false, want: [1, 2, 3], wantMore: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = mergeWindow(c.cur, c.inc.map((s) => text(s)), c.incMore);
      expect(seqs(got), `seqs`).toEqual(c.want);
      expect(got.hasMoreBefore, `hasMoreBefore`).toBe(c.wantMore);
    });
  }

  it("keeps unchanged objects by content_hash and swaps changed ones", () => {
    const cur = win([1, 2, 3]);
    const inc = [text(2), text(3, "tool done", "h3-new"), text(4)];
    const got = mergeWindow(cur, inc, false);
    expect(got.messages[0]).toBe(cur.messages[0]);
    expect(got.messages[1], "same hash keeps the held object").toBe(cur.messages[1]);
    expect(got.messages[2], "new hash takes the fetched object").toBe(inc[1]);
    expect(got.messages[2]!.text).toBe("tool done");
    expect(got.messages[3]).toBe(inc[2]);
  });

  it("returns the same window when nothing changed", () => {
    const cur = win([1, 2, 3]);
    const got = mergeWindow(cur, [text(2), text(3)], false);
    expect(got).toBe(cur);
  });

  it("a back-patch behind the cursor replaces only that message", () => {
    const cur = win([1, 2, 3, 4, 5]);
    const got = mergeWindow(cur, [text(2, "answered", "h2b"), text(3), text(4), text(5)], true);
    expect(got.messages.filter((m, i) => m !== cur.messages[i]).map((m) => m.seq)).toEqual([2]);
    expect(got.hasMoreBefore).toBe(false);
  });

  it("first and last seq", () => {
    expect([firstSeq(emptyWindow), lastSeq(emptyWindow)]).toEqual([0, 0]);
    expect([firstSeq(win([4, 5, 9])), lastSeq(win([4, 5, 9]))]).toEqual([4, 9]);
  });
});
