import { describe, expect, it } from "vitest";
import type { Dialog } from "../api";
import { answerFate, goneText, newKey, parseStored, retryable, toStore, type OutItem } from "./outbox";

const answer = (tool: string): OutItem => ({ key: "k", run: "r1", kind: "answer", answer: { tool_id: tool, answers: [{ chosen: [0] }] }, about: "Which database?", at: 1, status: "waiting" });
const dialog = (tool: string, outcome: Dialog["outcome"] = null): Dialog => ({ tool_id: tool, kind: "question", answerable: true, outcome });

describe("outbox", () => {
  it("makes keys the server takes", () => {
    const a = newKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newKey()).not.toBe(a);
  });
  it("sends an answer only to the dialog it answers, still waiting", () => {
    expect(answerFate(answer("t1"), dialog("t1"))).toBe("send");
    expect(answerFate(answer("t1"), dialog("t2"))).toBe("gone");
    expect(answerFate(answer("t1"), null)).toBe("gone");
    expect(answerFate(answer("t1"), dialog("t1", { dismissed: false }))).toBe("gone");
    expect(goneText(answer("t1"))).toContain("“Which database?”");
  });
  it("reads back what was kept, waiting again what was in flight", () => {
    const kept = [
      { ...answer("t1"), status: "sending" },
      { key: "k2", run: "r1", kind: "reply", text: "hi", at: 2, status: "failed", error: "409" },
      { key: "k3", run: "r1", kind: "reply", at: 3, status: "waiting" }, // no text
      { kind: "reply", text: "x" }, // no key
      { key: "k4", run: "r1", kind: "reply", text: "see", uploads: ["u1"], at: 4, status: "waiting" },
      { key: "k5", run: "r1", kind: "reply", text: "see", uploads: [5], at: 5, status: "waiting" }, // not ids
    ];
    const got = parseStored(JSON.stringify(kept));
    expect(got.map((i) => `${i.key}:${i.status}`)).toEqual(["k:waiting", "k2:failed", "k4:waiting"]);
    expect(got[2]!.uploads).toEqual(["u1"]);
    expect(parseStored("not json")).toEqual([]);
    expect(parseStored(null)).toEqual([]);
  });
  it("tries again after the network's failures, not the server's verdicts", () => {
    expect([0, 502, 503, 504].every(retryable)).toBe(true);
    expect([400, 404, 409, 413, 500].some(retryable)).toBe(false);
  });
  it("keeps what another tab queued when this one saves, and drops what this one sent", () => {
    const reply = (key: string): OutItem => ({ key, run: "r1", kind: "reply", text: key, at: 1, status: "waiting" });
    const held = new Set(["a", "sent"]);
    const stored = [reply("sent"), reply("a"), reply("other")]; // "other": another tab's
    expect(toStore([reply("a")], stored, held).map((i) => i.key)).toEqual(["a", "other"]);
    expect(toStore([], [], held)).toEqual([]);
  });
});
