import { describe, expect, it } from "vitest";
import { actionFailure, isOpenMessage, notificationFor, parsePayload, safePath } from "./notify";

describe("parsePayload", () => {
  it("reads lab's payload", () => {
    const p = parsePayload(JSON.stringify({ reason: "turn_end", run_id: "r1", url: "/runs/r1", title: "T", body: "B", tag: "run-r1", quiet: true }));
    expect(p).toEqual({ reason: "turn_end", run_id: "r1", url: "/runs/r1", title: "T", body: "B", tag: "run-r1", quiet: true });
  });
  it("still notifies on garbage", () => {
    for (const t of [null, "", "not json", "42", "[]", '{"reason":"weird","url":5}']) {
      const p = parsePayload(t);
      expect(p.title).toBe("lab");
      expect(p.url).toBe("/");
      expect(p.reason).toBe("blocked");
    }
  });
  it("never opens another origin", () => {
    for (const u of ["https://evil.example/", "//evil.example/x", "javascript:alert(1)", "/\\evil.example", "runs/x"]) {
      expect(safePath(u)).toBe("/");
    }
    expect(safePath("/runs/abc")).toBe("/runs/abc");
    expect(parsePayload(JSON.stringify({ url: "https://evil.example" })).url).toBe("/");
  });
});

describe("notificationFor", () => {
  it("alerts for a blocked run and keeps the run to open", () => {
    const n = notificationFor(parsePayload(JSON.stringify({ reason: "blocked", run_id: "r1", url: "/runs/r1", title: "T", body: "B", tag: "run-r1" })));
    expect(n.title).toBe("T");
    expect(n.options).toMatchObject({ body: "B", tag: "run-r1", silent: false, renotify: true, requireInteraction: true });
    expect(n.options.data).toEqual({ url: "/runs/r1", run_id: "r1", reason: "blocked" });
  });
  it("is quiet for a finished turn", () => {
    const n = notificationFor(parsePayload(JSON.stringify({ reason: "turn_end", url: "/runs/r1", title: "T", body: "", tag: "run-r1", quiet: true })));
    expect(n.options).toMatchObject({ silent: true, renotify: false, requireInteraction: false });
  });
});

describe("notification actions", () => {
  const withActions = JSON.stringify({
    reason: "blocked",
    run_id: "r1",
    url: "/runs/r1",
    title: "T",
    body: "Allow Bash: rm -rf build?",
    tag: "run-r1",
    actions: [
      { action: "answer-0", title: "Allow once", token: "tok0" },
      { action: "answer-1", title: "Deny", token: "tok1" },
      { action: "", title: "broken", token: "x" },
      { action: "answer-2", title: "no token" },
    ],
  });
  it("offers the answers where the platform shows them, keeping each token by action", () => {
    const n = notificationFor(parsePayload(withActions), 2);
    expect(n.options.actions).toEqual([
      { action: "answer-0", title: "Allow once" },
      { action: "answer-1", title: "Deny" },
    ]);
    expect((n.options.data as { tokens: unknown }).tokens).toEqual({ "answer-0": "tok0", "answer-1": "tok1" });
    // The tokens stay in the data, never in what the notification shows.
    expect(JSON.stringify(n.options.actions)).not.toContain("tok");
  });
  it("offers none where the platform has no actions, or too few for every answer", () => {
    for (const max of [0, 1]) {
      const n = notificationFor(parsePayload(withActions), max);
      expect(n.options.actions).toBeUndefined();
      expect((n.options.data as { tokens?: unknown }).tokens).toBeUndefined();
    }
  });
  it("says why an answer did not land", () => {
    expect(actionFailure(409, "").title).toMatch(/changed/);
    expect(actionFailure(404, "").title).toMatch(/expired/);
    expect(actionFailure(0, "").body).toMatch(/Cannot reach/);
    expect(actionFailure(500, "boom").body).toBe("boom");
  });
});

describe("isOpenMessage", () => {
  it("accepts only lab's open message", () => {
    expect(isOpenMessage({ type: "lab:open", url: "/runs/x" })).toBe(true);
    expect(isOpenMessage({ type: "other", url: "/" })).toBe(false);
    expect(isOpenMessage(null)).toBe(false);
    expect(isOpenMessage({ type: "lab:open" })).toBe(false);
  });
});
