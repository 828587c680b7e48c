import { describe, expect, test } from "vitest";
import type { Session } from "../api";
import { runHeading, sessionHeading, sessionLine } from "./heading";

describe("runHeading", () => {
  test("a prompt titles the run, the folder goes below", () => {
    expect(runHeading({ title: "Add a health endpoint to the API server", cwd: "/srv/myproject" })).toEqual({
      title: "Add a health endpoint to the API server",
      sub: "myproject",
    });
  });
  test("without a prompt the folder is never said twice", () => {
    expect(runHeading({ title: "myproject", cwd: "/srv/myproject" })).toEqual({ title: "myproject", sub: "/srv/myproject" });
    expect(runHeading({ title: "", cwd: "/srv/myproject" })).toEqual({ title: "myproject", sub: "/srv/myproject" });
  });
  test("before the run loads", () => {
    expect(runHeading(null)).toEqual({ title: "Run", sub: "" });
  });
});

describe("sessions", () => {
  const s: Session = { id: "0123456789abcdef", project_path: "/home/op/lab", title: "Fix the docs", size: 4096, mtime: "2026-07-08T09:00:00Z" };
  test("sessionHeading shows the title, not the id", () => {
    expect(sessionHeading(s, s.id)).toEqual({ title: "Fix the docs", sub: "lab · 01234567" });
    expect(sessionHeading({ ...s, title: "" }, s.id).title).toBe("(no prompt)");
    expect(sessionHeading(null, s.id)).toEqual({ title: "History", sub: "01234567" });
  });
  test("sessionLine shows messages and last activity instead of the size", () => {
    const now = Date.parse("2026-07-08T12:00:00Z");
    expect(sessionLine({ ...s, messages: 42, last_activity: "2026-07-08T11:55:00Z" }, now)).toBe("lab · 42 messages · 5m ago");
    expect(sessionLine({ ...s, messages: 1 }, now)).toBe("lab · 1 message · 3h ago");
    expect(sessionLine({ ...s, messages: 0 }, now)).toBe("lab · 3h ago");
    expect(sessionLine({ ...s, messages: 3, last_activity: "2026-07-08T11:59:50Z" }, now)).toBe("lab · 3 messages · active now");
    expect(sessionLine(s, now)).not.toMatch(/KB|B$/);
  });
});
