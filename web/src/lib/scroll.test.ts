import { describe, expect, it } from "vitest";
import { afterContent, afterUserScroll, atBottom, initialScroll, shouldLoadOlder, type ScrollState } from "./scroll";

const st = (following: boolean, target: "bottom" | "card", seen: string[] = []): ScrollState => ({ following, target, seen: new Set(seen) });

describe("afterContent", () => {
  const cases: { name: string; s: ScrollState; card: string; action: string; following: boolean; target: string }[] = [
    { name: "following, new messages", s: st(true, "bottom"), card: "", action: "bottom", following: true, target: "bottom" },
    { name: "scrolled up, new messages", s: st(false, "bottom"), card: "", action: "none", following: false, target: "bottom" },
    { name: "following, new tool_id", s: st(true, "bottom"), card: "t1", action: "card", following: true, target: "card" },
    { name: "scrolled up, new tool_id: never moved", s: st(false, "bottom"), card: "t1", action: "none", following: false, target: "bottom" },
    { name: "following, seen tool_id: stays", s: st(true, "card", ["t1"]), card: "t1", action: "none", following: true, target: "card" },
    { name: "following bottom, seen tool_id (reader came back down)", s: st(true, "bottom", ["t1"]), card: "t1", action: "bottom", following: true, target: "bottom" },
    { name: "scrolled up, seen tool_id", s: st(false, "bottom", ["t1"]), card: "t1", action: "none", following: false, target: "bottom" },
    { name: "card answered resumes bottom", s: st(true, "card", ["t1"]), card: "", action: "bottom", following: true, target: "bottom" },
    { name: "a second new tool_id retargets again", s: st(true, "card", ["t1"]), card: "t2", action: "card", following: true, target: "card" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = afterContent(c.s, c.card);
      expect(got.action).toBe(c.action);
      expect(got.state.following).toBe(c.following);
      expect(got.state.target).toBe(c.target);
      if (c.card) expect(got.state.seen.has(c.card), "tool_id marked seen").toBe(true);
    });
  }

  it("a tool_id seen while scrolled up does not yank later", () => {
    let s = st(false, "bottom");
    s = afterContent(s, "t1").state;
    s = afterUserScroll(s, true);
    const got = afterContent(s, "t1");
    expect(got.action).toBe("bottom");
  });

  it("arrival sequence from the start", () => {
    let s = initialScroll();
    const actions: string[] = [];
    for (const card of ["", "", "t1", "t1", "t1", ""]) {
      const r = afterContent(s, card);
      s = r.state;
      actions.push(r.action);
    }
    expect(actions).toEqual(["bottom", "bottom", "card", "none", "none", "bottom"]);
  });
});

describe("afterUserScroll", () => {
  it("scrolling up leaves follow, reaching the bottom resumes it", () => {
    let s = st(true, "card", ["t1"]);
    s = afterUserScroll(s, false);
    expect([s.following, s.target]).toEqual([false, "bottom"]);
    s = afterUserScroll(s, true);
    expect([s.following, s.target]).toEqual([true, "bottom"]);
  });
  it("no change returns the same state", () => {
    const s = st(true, "bottom");
    expect(afterUserScroll(s, true)).toBe(s);
    const u = st(false, "bottom");
    expect(afterUserScroll(u, false)).toBe(u);
  });
});

describe("geometry", () => {
  const cases: [number, number, number, boolean][] = [
    [0, 800, 800, true],
    [1000, 800, 1800, true],
    [965, 800, 1800, true],
    [900, 800, 1800, false],
    [0, 800, 5000, false],
  ];
  for (const [top, h, sh, want] of cases) {
    it(`atBottom(${top}, ${h}, ${sh}) = ${want}`, () => expect(atBottom(top, h, sh)).toBe(want));
  }
  it("shouldLoadOlder", () => {
    expect(shouldLoadOlder(100, 800, true, false)).toBe(true);
    expect(shouldLoadOlder(100, 800, false, false)).toBe(false);
    expect(shouldLoadOlder(100, 800, true, true)).toBe(false);
    expect(shouldLoadOlder(5000, 800, true, false)).toBe(false);
  });
});
