import { describe, expect, test } from "vitest";
import type { Usage } from "../api";
import { cost, full, short, tokens, warns } from "./meter";

const u = (context_tokens: number, context_window?: number, cost_usd?: number): Usage => ({
  context_tokens,
  context_window,
  input_tokens: 0,
  output_tokens: 0,
  requests: 1,
  cost_usd,
});

describe("meter", () => {
  test("how full, and when it warns", () => {
    expect(full(u(850_000, 1_000_000))).toBe(0.85);
    expect(full(u(5))).toBeNull();
    expect(full(null)).toBeNull();
    expect(warns(u(799_999, 1_000_000))).toBe(false);
    expect(warns(u(800_000, 1_000_000))).toBe(true);
    expect(warns(u(10_000_000))).toBe(false); // no window: no warning
  });
  test("tokens and cost in a few characters", () => {
    expect([950, 12_345, 220_000, 1_000_000, 1_250_000].map(tokens)).toEqual(["950", "12.3k", "220k", "1M", "1.3M"]);
    expect([undefined, 0, 0.004, 0.4201, 12.5, 321.4].map(cost)).toEqual(["", "", "<$0.01", "$0.42", "$12.50", "$321"]);
  });
  test("the header's line", () => {
    expect(short(u(850_000, 1_000_000, 3.4))).toBe("ctx 85% · ~$3.40");
    expect(short(u(12_345))).toBe("ctx 12.3k");
  });
});
