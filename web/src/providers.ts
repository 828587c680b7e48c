// The agent CLIs this lab runs (GET /providers), fetched once and shared:
// runs, sessions and the new-run form name a provider by its label. The
// app knows no provider of its own; until the list arrives (or when it
// cannot), a provider is shown by its id.

import { createSignal } from "solid-js";
import { api, type ProviderInfo } from "./api";

const [list, setList] = createSignal<ProviderInfo[] | null>(null);
let loading: Promise<ProviderInfo[]> | null = null;

/** loadProviders fetches the list once (again after a failure). */
export function loadProviders(): Promise<ProviderInfo[]> {
  if (!loading) {
    loading = api
      .providers()
      .then((ps) => {
        setList(ps);
        return ps;
      })
      .catch((e) => {
        loading = null;
        throw e;
      });
  }
  return loading;
}

/** providers is the list, null until it arrived. */
export const providers = list;

/** providerLabel names a provider for people: its label, else its id. */
export function providerLabel(name: string | undefined): string {
  if (!name) return "";
  if (!list()) void loadProviders().catch(() => {});
  return list()?.find((p) => p.name === name)?.label ?? name;
}

/** manyProviders says the server runs several, so rows say which one. */
export function manyProviders(): boolean {
  if (!list()) void loadProviders().catch(() => {});
  return (list()?.length ?? 0) > 1;
}

/** providerInfo is what the server says of a provider, undefined until the list arrives. */
export function providerInfo(name: string | undefined): ProviderInfo | undefined {
  if (!name) return undefined;
  if (!list()) void loadProviders().catch(() => {});
  return list()?.find((p) => p.name === name);
}
