// Turning errors into what a screen says.

import { ApiError } from "../api";

/** sentence makes a server message read as a sentence: capitalised, with a full stop. */
export function sentence(s: string): string {
  const t = s.trim();
  if (t === "") return t;
  const first = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(first) ? first : first + ".";
}

/** AuthFailure is what the login and setup screens show after a failed attempt. */
export interface AuthFailure {
  text: string;
  /** Seconds to wait before another attempt is allowed (a lockout), 0 when none. */
  wait: number;
}

/**
 * authFailure reads a failed login or setup: the server's own words (a
 * wrong password and a used setup token say different things), and for a
 * lockout what ran out ("… from your address") and the wait the server
 * named in Retry-After; the screen counts that wait down itself, so the
 * message's own "try again in N s" is left out.
 */
export function authFailure(e: unknown): AuthFailure {
  if (e instanceof ApiError) {
    if (e.status === 429) {
      const wait = e.retryAfter > 0 ? e.retryAfter : 60;
      const what = e.message.replace(/:?\s*try again in [^:]*$/i, "");
      return { text: what ? sentence(what) : "Too many attempts.", wait };
    }
    if (e.status === 0) return { text: "Cannot reach the lab server. Check that it runs, then try again.", wait: 0 };
    return { text: sentence(e.message), wait: 0 };
  }
  return { text: sentence(e instanceof Error ? e.message : String(e)), wait: 0 };
}

/** waitText says how long is left, in words a person reads at a glance. */
export function waitText(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const r = s % 60;
  return r ? `${m} min ${r} s` : `${m} min`;
}
