import { describe, expect, it } from "vitest";
import { isOpenMessage, notificationFor, parsePayload, safePath } from "./notify";

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

describe("isOpenMessage", () => {
  it("accepts only lab's open message", () => {
    expect(isOpenMessage({ type: "lab:open", url: "/runs/x" })).toBe(true);
    expect(isOpenMessage({ type: "other", url: "/" })).toBe(false);
    expect(isOpenMessage(null)).toBe(false);
    expect(isOpenMessage({ type: "lab:open" })).toBe(false);
  });
});
