import { describe, expect, it } from "vitest";
import type { Machine, Run } from "../api";
import { clock, isDown, machineNote, peerNameOK, staleRuns } from "./machines";

const now = new Date(2026, 6, 8, 15, 0);
const at = (h: number, m: number) => new Date(2026, 6, 8, h, m).toISOString();

describe("machines", () => {
  it("says why a machine's runs are stale", () => {
    expect(machineNote({ name: "b", status: "unreachable", since: at(14, 3) }, now)).toBe("unreachable since 14:03: its runs as last seen");
    expect(machineNote({ name: "b", status: "revoked", since: at(9, 30) }, now)).toBe("refuses this lab's token since 09:30: give it a new one in Settings");
    expect(machineNote({ name: "b", status: "ok" }, now)).toBe("");
    expect(machineNote({ name: "b", status: "connecting" }, now)).toBe("connecting…");
  });
  it("dates a time that is not today", () => {
    expect(clock(new Date(2026, 6, 1, 8, 5).toISOString(), now)).toMatch(/^2026-07-0\d 08:05$/);
    expect(clock("nonsense", now)).toBe("");
  });
  it("greys only the runs of machines that are down", () => {
    const ms: Machine[] = [
      { name: "here", local: true, status: "ok" },
      { name: "b", status: "unreachable" },
      { name: "c", status: "revoked" },
      { name: "d", status: "ok" },
    ];
    const run = (id: string, machine?: string) => ({ id, machine }) as Run;
    const runs = [run("r1", "here"), run("b~r1", "b"), run("c~r1", "c"), run("d~r1", "d"), run("r2")];
    expect([...staleRuns(runs, ms)].sort()).toEqual(["b~r1", "c~r1"]);
    expect(isDown(undefined)).toBe(false);
  });
  it("checks a peer's name as the server does", () => {
    for (const ok of ["build", "box-2", "a"]) expect(peerNameOK(ok)).toBe(true);
    for (const bad of ["Build", "-x", "a~b", "", "a".repeat(33), "a b"]) expect(peerNameOK(bad)).toBe(false);
  });
});
