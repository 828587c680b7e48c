import { describe, expect, it } from "vitest";
import { idle, nextFetch, noteChange, noteReconnect, type Plan } from "./refetch";

describe("refetch planning", () => {
  const cases: { name: string; plan: Plan; first: number; last: number; want: ReturnType<typeof nextFetch> }[] = [
    { name: "nothing held", plan: idle, first: 0, last: 0, want: { kind: "latest" } },
    { name: "plain append", plan: idle, first: 1, last: 40, want: { kind: "after", after: 40 } },
    { name: "back-patch moves cursor down", plan: noteChange(idle, 37), first: 1, last: 40, want: { kind: "after", after: 36 } },
    { name: "lowest back-patch wins", plan: noteChange(noteChange(noteChange(idle, 38), 35), 39), first: 1, last: 40, want: { kind: "after", after: 34 } },
    { name: "back-patch past the end is an append", plan: noteChange(idle, 41), first: 1, last: 40, want: { kind: "after", after: 40 } },
    { name: "back-patch below the window is ignored", plan: noteChange(idle, 3), first: 10, last: 40, want: { kind: "after", after: 40 } },
    { name: "back-patch of seq 1 refetches the latest window", plan: noteChange(idle, 1), first: 1, last: 40, want: { kind: "latest" } },
    { name: "reconnect forces the latest window", plan: noteReconnect(noteChange(idle, 37)), first: 1, last: 40, want: { kind: "latest" } },
    { name: "event without back-patch keeps the plan", plan: noteChange(idle, undefined), first: 1, last: 8, want: { kind: "after", after: 8 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(nextFetch(c.plan, c.first, c.last)).toEqual(c.want);
    });
  }
});
