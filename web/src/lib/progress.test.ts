import { describe, expect, it } from "vitest";
import { elapsed, toolLine } from "./progress";

describe("progress", () => {
  const t0 = Date.parse("2026-12-01T09:00:00Z");
  it("formats elapsed time", () => {
    expect(elapsed("2026-12-01T09:00:00Z", t0 + 42_000)).toBe("0:42");
    expect(elapsed("2026-12-01T09:00:00Z", t0 + 185_500)).toBe("3:05");
    expect(elapsed("2026-12-01T09:00:00Z", t0 + 3_723_000)).toBe("1:02:03");
    expect(elapsed("2026-12-01T09:00:00Z", t0 - 5_000)).toBe("0:00");
    expect(elapsed(undefined, t0)).toBe("");
  });
  it("names the running tool", () => {
    expect(toolLine({ since: "", tool: { id: "t", name: "RunCommand", input: "npm\n test", status: "running" } })).toBe("RunCommand npm test");
    expect(toolLine({ since: "", tool: { id: "t", name: "ReadFile", input: "", status: "running" } })).toBe("ReadFile");
    expect(toolLine({ since: "" })).toBe("");
    expect(toolLine(null)).toBe("");
  });
  it("names the slash command the CLI works on", () => {
    expect(toolLine({ since: "", command: "/compact" })).toBe("/compact");
  });
});
