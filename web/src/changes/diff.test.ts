import { describe, expect, test } from "vitest";
import { commentText, diffRows, statusMark } from "./diff";

describe("diffRows", () => {
  test("numbers each row on its sides, hunk by hunk", () => {
    const d = "--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n@@ -10 +10,2 @@\n ten\n+eleven\n\\ No newline at end of file";
    expect(diffRows(d)).toEqual([
      { kind: "hunk", text: "@@ -1,3 +1,3 @@" },
      { kind: "ctx", old: 1, new: 1, text: "one" },
      { kind: "del", old: 2, text: "two" },
      { kind: "add", new: 2, text: "2" },
      { kind: "ctx", old: 3, new: 3, text: "three" },
      { kind: "hunk", text: "@@ -10 +10,2 @@" },
      { kind: "ctx", old: 10, new: 10, text: "ten" },
      { kind: "add", new: 11, text: "eleven" },
      { kind: "note", text: "No newline at end of file" },
    ]);
  });

  test("a new file: every line added from 1; lines starting with +++ inside a hunk are content", () => {
    expect(diffRows("--- n\n+++ n\n@@ -0,0 +1,2 @@\n+a\n+++b")).toEqual([
      { kind: "hunk", text: "@@ -0,0 +1,2 @@" },
      { kind: "add", new: 1, text: "a" },
      { kind: "add", new: 2, text: "++b" },
    ]);
  });

  test("an empty diff has no rows", () => {
    expect(diffRows("")).toEqual([]);
  });
});

describe("commentText", () => {
  test("quotes path:line and the line, then the note", () => {
    expect(commentText("src/a b.go", { kind: "add", new: 12, text: "\treturn nil" }, "  handle the error ")).toBe(
      "Comment on src/a b.go:12:\n> \treturn nil\n\nhandle the error",
    );
  });
  test("a removed line names its old number", () => {
    expect(commentText("a.txt", { kind: "del", old: 3, text: "gone" }, "why?")).toBe("Comment on a.txt:3 (a removed line):\n> gone\n\nwhy?");
  });
});

test("statusMark", () => {
  expect(["added", "modified", "deleted", "renamed", "x"].map(statusMark).join("")).toBe("AMDR?");
});
