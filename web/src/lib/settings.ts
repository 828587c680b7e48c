// A live run's permission mode and model, named for people: by the
// provider's labels when it has them, else as the CLI records them.

import type { ProviderInfo } from "../api";

export function modeLabel(p: ProviderInfo | undefined, mode: string | undefined): string {
  return (mode && p?.modes.find((m) => m.value === mode)?.label) || mode || "";
}

export function modelLabel(p: ProviderInfo | undefined, model: string | undefined): string {
  return (model && p?.models?.find((m) => m.value === model)?.label) || model || "";
}

/** isModel: the model a run uses is the choice value, or names it (a transcript may record a full id, "vendor-large-5-5", for the choice "large"). */
export function isModel(model: string | undefined, value: string): boolean {
  if (!model) return false;
  return model === value || (value !== "default" && model.split(/[^a-z0-9.]+/i).includes(value));
}
