import { describe, expect, it } from "vitest";
import { sseFrames } from "./stream";

describe("sseFrames", () => {
  it("splits whole events and keeps a partial one", () => {
    const { frames, rest } = sseFrames('event: screen\ndata: {"cols":80}\n\n: still here\n\nevent: output\ndata: QQ==\n\nevent: out');
    expect(frames).toEqual([
      { event: "screen", data: '{"cols":80}' },
      { event: "output", data: "QQ==" },
    ]);
    expect(rest).toBe("event: out");
  });
});
