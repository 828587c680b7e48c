import { describe, expect, it } from "vitest";
import type { Run } from "../api";
import { ago, baseName, cliVersion, cliWarning, recentDirs } from "./format";

const run = (id: string, state: Run["state"], pending: boolean, started: string, cwd = "/w/" + id): Run => ({
  id, cwd, title: id, state, pending, started_at: started,
});

describe("runs", () => {
  it("recentDirs dedupes and orders by recency", () => {
    const rs = [run("a", "ended", false, "2026-01-01T00:00:00Z", "/p/x"), run("b", "ended", false, "2026-01-03T00:00:00Z", "/p/y")];
    const ss = [
      { id: "s", project_path: "/p/x", title: "", size: 1, mtime: "2026-01-04T00:00:00Z" },
      { id: "t", project_path: "/p/z", title: "", size: 1, mtime: "2026-01-02T00:00:00Z" },
    ];
    expect(recentDirs(rs, ss)).toEqual(["/p/x", "/p/y", "/p/z"]);
  });
  it("ago and baseName", () => {
    const now = Date.parse("2026-01-10T12:00:00Z");
    expect(ago("2026-01-10T11:59:50Z", now)).toBe("now");
    expect(ago("2026-01-10T11:50:00Z", now)).toBe("10m");
    expect(ago("2026-01-10T09:00:00Z", now)).toBe("3h");
    expect(ago("2026-01-08T12:00:00Z", now)).toBe("2d");
    expect(baseName("/home/me/proj/")).toBe("proj");
  });
  it("cliVersion flags a version lab was not verified with", () => {
    expect(cliVersion({ cli_version: "2.1.332", cli_verified: true })).toEqual({ label: "CLI 2.1.332", unverified: false });
    expect(cliVersion({ cli_version: "2.1.340", cli_verified: false })).toEqual({ label: "CLI 2.1.340", unverified: true });
    // A server that does not say is not taken as a verification.
    expect(cliVersion({ cli_version: "2.1.340" })).toEqual({ label: "CLI 2.1.340", unverified: true });
    expect(cliVersion({})).toBeNull();
    expect(cliWarning("2.1.340")).toMatch(/^CLI 2\.1\.340 is not verified/);
  });
});
