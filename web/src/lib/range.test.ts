import { describe, expect, it } from "vitest";
import { bounds, extendDown, extendUp, hiddenAbove, indexOfSeq, latest, liveRange, slice, trimLive, type Range } from "./range";
import { text } from "./testdata";

const held = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => text(from + i));
const seqs = (ms: ReturnType<typeof held>, r: Range) => {
  const s = slice(ms, r);
  return s.length ? [s[0]!.seq, s[s.length - 1]!.seq, s.length] : [];
};

describe("render range", () => {
  const ms = held(101, 1000); // 900 held messages

  it("indexOfSeq", () => {
    expect([indexOfSeq(ms, 0), indexOfSeq(ms, 101), indexOfSeq(ms, 150), indexOfSeq(ms, 5000)]).toEqual([0, 0, 49, 900]);
  });

  it("live from 0 renders everything held", () => {
    expect(seqs(ms, liveRange)).toEqual([101, 1000, 900]);
    expect(slice(ms, liveRange)).toBe(ms);
  });

  it("latest keeps the newest n, live", () => {
    const r = latest(ms, 100);
    expect(r.live).toBe(true);
    expect(seqs(ms, r)).toEqual([901, 1000, 100]);
    expect(hiddenAbove(ms, r)).toBe(true);
  });

  it("extendUp adds above and trims the bottom past max", () => {
    let r = latest(ms, 100);
    r = extendUp(ms, r, 150, 300);
    expect(seqs(ms, r)).toEqual([751, 1000, 250]);
    expect(r.live).toBe(true);
    r = extendUp(ms, r, 150, 300);
    expect(seqs(ms, r)).toEqual([601, 900, 300]);
    expect(r.live).toBe(false);
  });

  it("extendUp stops at the oldest held", () => {
    const r = extendUp(ms, { from: 151, live: false, to: 300 }, 150, 300);
    expect(seqs(ms, r)).toEqual([101, 300, 200]);
    expect(hiddenAbove(ms, r)).toBe(false);
  });

  it("extendDown adds below, trims the top, and turns live at the end", () => {
    let r: Range = { from: 601, live: false, to: 900 };
    r = extendDown(ms, r, 50, 300);
    expect(seqs(ms, r)).toEqual([651, 950, 300]);
    expect(r.live).toBe(false);
    r = extendDown(ms, r, 150, 300);
    expect(seqs(ms, r)).toEqual([701, 1000, 300]);
    expect(r.live).toBe(true);
  });

  it("a live slice grows with appended messages until trimmed", () => {
    const r = latest(ms, 100);
    const more = [...ms, ...held(1001, 1300)];
    expect(seqs(more, r)).toEqual([901, 1300, 400]);
    expect(seqs(more, trimLive(more, r, 300))).toEqual([1001, 1300, 300]);
    const fixed: Range = { from: 901, live: false, to: 1000 };
    expect(trimLive(more, fixed, 50)).toBe(fixed);
  });

  it("older messages merged above a slice starting at the oldest stay hidden until extended", () => {
    const r = latest(held(901, 1000), 100); // from 901
    const merged = [...held(751, 900), ...held(901, 1000)];
    expect(bounds(merged, r)).toEqual([150, 250]);
    expect(seqs(merged, extendUp(merged, r, 150, 300))).toEqual([751, 1000, 250]);
  });

  it("empty", () => {
    expect(latest([], 10)).toEqual(liveRange);
    expect(slice([], liveRange)).toEqual([]);
  });
});
