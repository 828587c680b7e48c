import { describe, expect, it } from "vitest";
import type { Run } from "../api";
import { attentionOf, byAttention, titleFor, waitingCount } from "./attention";

const run = (id: string, over: Partial<Run>): Run => ({
  id,
  cwd: "/w/" + id,
  title: id,
  state: "idle",
  pending: false,
  started_at: "2026-12-01T09:00:00Z",
  ...over,
});

describe("attention", () => {
  it("tells blocked from your turn", () => {
    expect(attentionOf(run("a", { state: "question", pending: true }))).toBe("blocked");
    expect(attentionOf(run("b", { state: "needs_input" }))).toBe("your_turn");
    expect(attentionOf(run("c", { state: "ended", pending: true }))).toBe("ended");
    expect(attentionOf(run("d", { state: "working", attention: "blocked" }))).toBe("blocked");
  });

  it("sorts by attention, then last activity", () => {
    const runs = [
      run("ended", { state: "ended", last_activity: "2026-12-01T12:00:00Z" }),
      run("turn-old", { state: "needs_input", last_activity: "2026-12-01T10:00:00Z" }),
      run("working", { state: "working", last_activity: "2026-12-01T11:59:00Z" }),
      run("blocked", { state: "question", pending: true, last_activity: "2026-12-01T09:30:00Z" }),
      run("turn-new", { state: "needs_input", last_activity: "2026-12-01T11:00:00Z" }),
      run("seen", { state: "needs_input", attention: "seen", last_activity: "2026-12-01T11:30:00Z" }),
      run("idle", { state: "idle" }),
    ];
    expect(byAttention(runs).map((r) => r.id)).toEqual(["blocked", "turn-new", "turn-old", "working", "seen", "idle", "ended"]);
  });

  it("counts blocked runs and unread turns for the title and badge, not seen ones", () => {
    const runs = [
      run("a", { state: "question", pending: true }),
      run("b", { state: "needs_input" }),
      run("c", { attention: "blocked", state: "question" }),
      run("d", { state: "needs_input", attention: "seen" }),
      run("e", { state: "working" }),
    ];
    expect(waitingCount(runs)).toBe(3);
    expect(titleFor(3)).toBe("(3) lab");
    expect(titleFor(0)).toBe("lab");
  });
});
