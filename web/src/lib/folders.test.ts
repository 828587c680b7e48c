import { describe, expect, it } from "vitest";
import { childrenQuery, folderName, tilde } from "./folders";

describe("folders", () => {
  it("tilde abbreviates the home folder only", () => {
    expect(tilde("/home/me", "/home/me")).toBe("~");
    expect(tilde("/home/me/src/a", "/home/me/")).toBe("~/src/a");
    expect(tilde("/home/meow/x", "/home/me")).toBe("/home/meow/x");
    expect(tilde("/srv/x", "")).toBe("/srv/x");
    expect(tilde("/srv/x", "/")).toBe("/srv/x");
  });
  it("folderName is the last element", () => {
    expect(folderName("~/src/alpha")).toBe("alpha");
    expect(folderName("~")).toBe("~");
    expect(folderName("/")).toBe("/");
    expect(folderName("/srv/x/")).toBe("x");
  });
  it("childrenQuery ends with one slash", () => {
    expect(childrenQuery("~/src")).toBe("~/src/");
    expect(childrenQuery("/a/")).toBe("/a/");
  });
});
