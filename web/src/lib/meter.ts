// The context and usage meter's arithmetic and words: how full the
// context is, tokens and the estimated cost in a few characters.

import type { Usage } from "../api";

/** fullWarning is how full a context is when the meter warns (conv.FullWarning). */
export const fullWarning = 0.8;

/** full is how full the context is, 0 to 1 (more when over), null when the window is unknown. */
export function full(u: Usage | null | undefined): number | null {
  if (!u || !u.context_window || u.context_window <= 0) return null;
  return u.context_tokens / u.context_window;
}

/** warns says the context is full enough to warn (and offer a compaction). */
export function warns(u: Usage | null | undefined): boolean {
  const f = full(u);
  return f !== null && f >= fullWarning;
}

/** tokens formats a token count: 950, 12.3k, 850k, 1.2M. */
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${trim((n / 1000).toFixed(1))}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${trim((n / 1_000_000).toFixed(1))}M`;
}

/** cost formats an estimated cost in dollars: "<$0.01", "$0.42", "$12". */
export function cost(usd: number | undefined): string {
  if (usd === undefined || usd <= 0) return "";
  if (usd < 0.01) return "<$0.01";
  if (usd < 100) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd)}`;
}

/** short is the header's compact meter: "ctx 42%" (or "ctx 12.3k" when the window is unknown) and the cost. */
export function short(u: Usage): string {
  const f = full(u);
  const ctx = f === null ? `ctx ${tokens(u.context_tokens)}` : `ctx ${Math.round(f * 100)}%`;
  const c = cost(u.cost_usd);
  return c ? `${ctx} · ~${c}` : ctx;
}

function trim(s: string): string {
  return s.endsWith(".0") ? s.slice(0, -2) : s;
}
