// What every dialog card shares (DialogCard's question and plan cards,
// PermissionCard): the props a card takes, and the send of its answer
// with the disabled state and the error text a 409 explains.

import { createSignal } from "solid-js";
import { ApiError, type Answer, type Dialog } from "../api";

export interface CardProps {
  d: Dialog;
  /** Posts the answer; rejects with ApiError on failure. */
  onAnswer: (a: Answer) => Promise<void>;
  /** Called after a 409 so the chat refetches the dialog. */
  onConflict: () => void;
}

/** useSend wraps an answer post with the disabled state and error text. */
export function useSend(props: CardProps) {
  const [sending, setSending] = createSignal(false);
  const [error, setError] = createSignal("");
  async function send(build: () => Answer) {
    let a: Answer;
    try {
      a = build();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    setSending(true);
    setError("");
    try {
      await props.onAnswer(a);
      // Stay disabled: the card goes away when the refetch shows the outcome.
    } catch (e) {
      setSending(false);
      if (e instanceof ApiError && e.status === 409) {
        // The server says why (the prompt changed, an option lab cannot
        // read); the card refetches either way.
        setError(`This question changed — refreshing.${e.message ? ` (${e.message})` : ""}`);
        props.onConflict();
      } else {
        setError(e instanceof Error ? e.message : String(e));
      }
    }
  }
  return { sending, error, send };
}
