import { describe, expect, it } from "vitest";
import type { Run } from "../api";
import { bulkSummary, endedRuns, idleRuns } from "./housekeeping";

const run = (id: string, state: Run["state"], pending = false, archived?: string): Run => ({
  id, cwd: "/w", title: id, state, pending, started_at: "2026-01-01T00:00:00Z", archived_at: archived,
});

describe("housekeeping", () => {
  const attached = { ...run("h", "idle"), attached: { pid: 7, pane: "ops:%1" } };
  const runs = [attached, run("a", "idle"), run("b", "needs_input"), run("c", "working"), run("d", "question", true), run("e", "needs_input", true), run("f", "ended"), run("g", "ended", false, "2026-01-02T00:00:00Z")];
  it("idle runs are live, not working, with nothing pending, and lab's own", () => {
    expect(idleRuns(runs).map((r) => r.id)).toEqual(["a", "b"]);
  });
  it("ended runs not yet archived can be archived", () => {
    expect(endedRuns(runs).map((r) => r.id)).toEqual(["f"]);
  });
  it("bulkSummary names what was left alone", () => {
    expect(bulkSummary("Stopped", { done: ["a"], skipped: [] })).toBe("Stopped 1 run.");
    expect(bulkSummary("Stopped", { done: [], skipped: [{ id: "c", reason: "it is working" }] })).toBe("Stopped 0 runs. Left 1 alone: it is working.");
  });
});
