import { describe, expect, it } from "vitest";
import { isModel, modeLabel, modelLabel } from "./settings";

const provider = {
  name: "p",
  label: "P",
  modes: [{ value: "plan", label: "Plan first", help: "" }],
  models: [{ value: "sonnet", label: "Sonnet" }],
};

describe("settings", () => {
  it("names modes and models by the provider's labels, else as recorded", () => {
    expect(modeLabel(provider, "plan")).toBe("Plan first");
    expect(modeLabel(provider, "weird")).toBe("weird");
    expect(modeLabel(undefined, undefined)).toBe("");
    expect(modelLabel(provider, "sonnet")).toBe("Sonnet");
    expect(modelLabel(provider, "claude-sonnet-5-5")).toBe("claude-sonnet-5-5");
  });
  it("marks the model a run uses", () => {
    expect(isModel("sonnet", "sonnet")).toBe(true);
    expect(isModel("claude-sonnet-5-5", "sonnet")).toBe(true);
    expect(isModel("gpt-5.6-sol", "gpt-5.6-sol")).toBe(true);
    expect(isModel("gpt-5.6-sol", "gpt-5.6-luna")).toBe(false);
    expect(isModel("claude-opus-5-5", "default")).toBe(false);
    expect(isModel(undefined, "opus")).toBe(false);
  });
});
