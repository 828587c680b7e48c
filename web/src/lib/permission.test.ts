import { describe, expect, it } from "vitest";
import type { Dialog } from "../api";
import { decisionText, denyIndex, diffBody, diffLineClass, permissionAnswer, plainOption, relPath, withoutKeyHint } from "./permission";

const bash: Dialog = {
  tool_id: "toolu_1",
  kind: "permission",
  answerable: true,
  outcome: null,
  permission: {
    tool: "RunCommand",
    command: "touch x",
    options: [
      { label: "Yes", role: "allow_once" },
      { label: "Yes, and don’t ask again for: touch x", role: "allow_always" },
      { label: "Yes, and switch to auto mode", role: "switch_mode" },
      { label: "No", role: "deny", feedback: true },
      { label: "Maybe", role: "unknown" },
    ],
  },
};

describe("permission answers", () => {
  it("chooses an option by index", () => {
    expect(permissionAnswer(bash, 1)).toEqual({ tool_id: "toolu_1", option: 1 });
  });
  it("carries feedback only on a denial that takes it", () => {
    expect(permissionAnswer(bash, 3, "use mkdir")).toEqual({ tool_id: "toolu_1", option: 3, feedback: "use mkdir" });
    expect(() => permissionAnswer(bash, 0, "x")).toThrow(/takes no feedback/);
    expect(permissionAnswer(bash, 3, "   ")).toEqual({ tool_id: "toolu_1", option: 3 });
  });
  it("refuses multi-line feedback, unknown options and out of range", () => {
    expect(() => permissionAnswer(bash, 3, "a\nb")).toThrow(/one line/);
    expect(() => permissionAnswer(bash, 4)).toThrow(/cannot tell/);
    expect(() => permissionAnswer(bash, 9)).toThrow(/no such option/);
  });
  it("finds the denial that takes text", () => {
    expect(denyIndex(bash)).toBe(3);
  });
});

describe("words", () => {
  it("words options by role, keeping unknown labels", () => {
    expect(bash.permission!.options.map(plainOption)).toEqual(["Allow once", "Always allow", "Allow, and change mode", "Deny", "Maybe"]);
  });
  it("words decisions", () => {
    expect(decisionText({ allowed: true, scope: "once" })).toBe("allowed once");
    expect(decisionText({ allowed: true, scope: "always" })).toBe("always allowed");
    expect(decisionText({ allowed: false, feedback: "use mkdir" })).toBe("denied: “use mkdir”");
    expect(decisionText({ allowed: false })).toBe("denied");
  });
  it("classes diff lines", () => {
    expect(["--- a", "+++ a", "@@ -1 +1 @@", "+x", "-y", " z"].map(diffLineClass)).toEqual(["d-file", "d-file", "d-hunk", "d-add", "d-del", "d-ctx"]);
  });
});

describe("the card names things once, without key hints", () => {
  it("drops the CLI's key hints from labels", () => {
    expect(withoutKeyHint("Yes, and switch to accept edits for this session (shift+tab)")).toBe("Yes, and switch to accept edits for this session");
    expect(withoutKeyHint("No, and tell the agent what to do differently (esc)")).toBe("No, and tell the agent what to do differently");
    expect(withoutKeyHint("Yes (ctrl+e to explain)")).toBe("Yes");
    expect(withoutKeyHint("Yes, allow reading (from this project)")).toBe("Yes, allow reading (from this project)");
  });
  it("shows a path relative to the run's folder when inside it", () => {
    expect(relPath("/w/app/src/a.go", "/w/app")).toBe("src/a.go");
    expect(relPath("/w/app/src/a.go", "/w/app/")).toBe("src/a.go");
    expect(relPath("/w/app", "/w/app")).toBe(".");
    expect(relPath("/w/apple/a.go", "/w/app")).toBe("/w/apple/a.go");
    expect(relPath("/etc/hosts", undefined)).toBe("/etc/hosts");
  });
  it("drops a diff's file headers, keeping its hunks", () => {
    expect(diffBody("--- /w/a.txt\n+++ /w/a.txt\n@@ -1 +1 @@\n-x\n+y")).toBe("@@ -1 +1 @@\n-x\n+y");
    expect(diffBody("@@ -0,0 +1 @@\n+--- not a header")).toBe("@@ -0,0 +1 @@\n+--- not a header");
  });
});
