import { describe, expect, it } from "vitest";
import { bytesOf, fontFor, inputsOf } from "./input";

describe("inputsOf", () => {
  it("sends typed text, then the keys after it", () => {
    expect(inputsOf("/help\r")).toEqual([{ text: "/help", keys: ["Enter"] }]);
  });
  it("splits text typed after keys into a new input, keeping order", () => {
    expect(inputsOf("a\x1b[Ab\t")).toEqual([{ text: "a", keys: ["Up"] }, { text: "b", keys: ["Tab"] }]);
  });
  it("names the bar's keys from their sequences", () => {
    expect(inputsOf("\x1b\x1b[Z\x1bOB\x1b[D\x1b[C\x7f\x03")).toEqual([{ keys: ["Escape", "BTab", "Down", "Left", "Right", "BSpace", "C-c"] }]);
  });
  it("drops sequences and control bytes the allow-list has no name for", () => {
    expect(inputsOf("\x1b[15~x\x1b[<0;3;4M\x01y")).toEqual([{ text: "xy" }]);
  });
  it("sends nothing for nothing", () => {
    expect(inputsOf("")).toEqual([]);
    expect(inputsOf("\x1b[1;5P")).toEqual([]);
  });
  it("keeps non-ASCII text", () => {
    expect(inputsOf("é→")).toEqual([{ text: "é→" }]);
  });
});

describe("bytesOf", () => {
  it("decodes base64 to the raw bytes, partial UTF-8 included", () => {
    expect([...bytesOf("G1szMW3D")]).toEqual([0x1b, 0x5b, 0x33, 0x31, 0x6d, 0xc3]);
  });
});

describe("fontFor", () => {
  it("fits narrow panes and keeps wide ones readable", () => {
    expect(fontFor(390, 40)).toBe(15);
    expect(fontFor(390, 60)).toBe(10.5);
    expect(fontFor(390, 120)).toBe(10);
  });
});
