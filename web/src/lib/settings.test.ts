import { describe, expect, it } from "vitest";
import { isModel, modeLabel, modelLabel } from "./settings";

const provider = {
  name: "p",
  label: "P",
  modes: [{ value: "plan", label: "Plan first", help: "" }],
  models: [{ value: "small", label: "Small" }],
};

describe("settings", () => {
  it("names modes and models by the provider's labels, else as recorded", () => {
    expect(modeLabel(provider, "plan")).toBe("Plan first");
    expect(modeLabel(provider, "weird")).toBe("weird");
    expect(modeLabel(undefined, undefined)).toBe("");
    expect(modelLabel(provider, "small")).toBe("Small");
    expect(modelLabel(provider, "vendor-small-5-5")).toBe("vendor-small-5-5");
  });
  it("marks the model a run uses", () => {
    expect(isModel("small", "small")).toBe(true);
    expect(isModel("vendor-small-5-5", "small")).toBe(true);
    expect(isModel("model-2.6-a", "model-2.6-a")).toBe(true);
    expect(isModel("model-2.6-a", "model-2.6-b")).toBe(false);
    expect(isModel("vendor-large-5-5", "default")).toBe(false);
    expect(isModel(undefined, "large")).toBe(false);
  });
});
