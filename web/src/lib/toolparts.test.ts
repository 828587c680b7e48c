import { expect, test } from "vitest";
import type { ToolCall } from "../api";
import { inputParts } from "./toolparts";

const tool = (input: string, detail?: string): ToolCall => ({ id: "t", name: "X", input, status: "ok", detail });

test("a short command is the input, once", () => {
  expect(inputParts(tool("ls -la"))).toEqual({ head: "", body: "ls -la", bodyLabel: "Input" });
});

test("a long command's detail replaces the cut summary", () => {
  expect(inputParts(tool("cat <<'EOF' > gen.txt …", "cat <<'EOF' > gen.txt\nhello\nEOF"))).toEqual({
    head: "",
    body: "cat <<'EOF' > gen.txt\nhello\nEOF",
    bodyLabel: "Input",
  });
});

test("a written file: its path names it, its content is the body", () => {
  expect(inputParts(tool("/w/notes.md", "# Notes\n\nline"))).toEqual({ head: "/w/notes.md", body: "# Notes\n\nline", bodyLabel: "Content" });
});
