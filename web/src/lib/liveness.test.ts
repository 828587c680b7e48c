import { describe, expect, it } from "vitest";
import { announced, deadAt, doubtful, firstRetryMs, lastRetryMs, nextRetry } from "./liveness";

describe("liveness", () => {
  it("takes a stream silent for 2.5 heartbeats for dead", () => {
    expect(deadAt({ at: 1000, everyMs: 10000 })).toBe(26000);
    expect(deadAt({ at: 0, everyMs: 1000 })).toBe(2500);
  });
  it("doubts a stream back in view that has been quiet longer than a heartbeat", () => {
    const h = { at: 0, everyMs: 10000 };
    expect(doubtful(h, 5000)).toBe(false);
    expect(doubtful(h, 12001)).toBe(true);
  });
  it("retries sooner than it used to, up to 5 s", () => {
    expect(nextRetry(0)).toBe(firstRetryMs);
    expect(nextRetry(1000)).toBe(2000);
    expect(nextRetry(4000)).toBe(lastRetryMs);
    expect(nextRetry(lastRetryMs)).toBe(lastRetryMs);
  });
  it("reads the interval a heartbeat announces, and nothing else", () => {
    expect(announced({ type: "heartbeat", every_ms: 2000 }, 10000)).toBe(2000);
    expect(announced({ type: "heartbeat" }, 10000)).toBe(10000);
    expect(announced({ every_ms: 5 }, 10000)).toBe(10000);
    expect(announced(null, 10000)).toBe(10000);
  });
});
