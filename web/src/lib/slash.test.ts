import { describe, expect, it } from "vitest";
import type { Command } from "../api";
import { fill, menuMatches, parseSlash, route, typing } from "./slash";

const cmd = (name: string, args: Command["args"] = "none", extra: Partial<Command> = {}): Command => ({ name, source: "builtin", args, ...extra });
const list = [cmd("compact", "optional"), cmd("autocompact"), cmd("clear"), cmd("config", "none", { refused: "it opens a screen" }), cmd("ns:deploy", "optional", { source: "project" })];

describe("slash commands", () => {
  it("reads one command line", () => {
    expect(parseSlash("/compact")).toEqual({ name: "compact", args: "" });
    expect(parseSlash("  /compact  keep the tests  ")).toEqual({ name: "compact", args: "keep the tests" });
    expect(parseSlash("/compact\nsecond line")).toBeNull();
    expect(parseSlash("compact")).toBeNull();
    expect(parseSlash("/")).toBeNull();
  });
  it("knows when a name is being typed", () => {
    expect(typing("/")).toBe("");
    expect(typing("/com")).toBe("com");
    expect(typing("/compact ")).toBeNull();
    expect(typing("say /com")).toBeNull();
  });
  it("offers names that start with the word first, then those holding it", () => {
    expect(menuMatches(list, "com").map((c) => c.name)).toEqual(["compact", "autocompact"]);
    expect(menuMatches(list, "").map((c) => c.name)).toEqual(["compact", "autocompact", "clear", "ns:deploy", "config"]);
    expect(menuMatches(list, "c").map((c) => c.name)).toEqual(["compact", "clear", "config", "autocompact"]);
    expect(menuMatches(list, "DEP").map((c) => c.name)).toEqual(["ns:deploy"]);
    expect(menuMatches(list, "zzz")).toEqual([]);
  });
  it("routes a listed command to the command path, anything else as text", () => {
    expect(route(list, "/compact keep it short")).toMatchObject({ kind: "command", command: { name: "compact" }, args: "keep it short" });
    expect(route(list, "/config")).toMatchObject({ kind: "command", command: { refused: "it opens a screen" } });
    expect(route(list, "/usr/bin is where it lives")).toEqual({ kind: "text" });
    expect(route(list, "hello /compact")).toEqual({ kind: "text" });
    expect(route(list, "/compact\nand more")).toEqual({ kind: "text" });
    expect(route(null, "/compact")).toMatchObject({ kind: "command", command: { name: "compact" } });
  });
  it("fills a picked command ready for its text", () => {
    expect(fill(cmd("clear"))).toBe("/clear");
    expect(fill(cmd("compact", "optional"))).toBe("/compact ");
    expect(fill(cmd("model", "required"))).toBe("/model ");
  });
});
