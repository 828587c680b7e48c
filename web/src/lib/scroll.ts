// When the chat pane scrolls by itself.
//
// The reader owns the scroll position. The pane follows new content only
// while the reader is at the bottom ("following"); a reader scrolled up into
// history is never moved. The one exception to plain bottom-following is a
// dialog card whose tool_id has not been seen before: its arrival retargets
// the follow-scroll to the card's top, so a long plan or form is read from
// its start. A tool_id already seen (a refetch, a re-render, a reload of the
// same card) never moves anything.

export interface ScrollState {
  /** The reader is at the bottom (or at the card the pane scrolled to). */
  following: boolean;
  /** What following means: stick to the bottom, or stay at a card's top. */
  target: "bottom" | "card";
  /** tool_ids whose card has already arrived. */
  seen: ReadonlySet<string>;
}

export type Action = "none" | "bottom" | "card";

export function initialScroll(): ScrollState {
  return { following: true, target: "bottom", seen: new Set() };
}

/**
 * afterContent decides what to do after the rendered content changed.
 * cardToolId is the pending card's tool_id ("" when none is shown).
 */
export function afterContent(s: ScrollState, cardToolId: string): { state: ScrollState; action: Action } {
  if (cardToolId && !s.seen.has(cardToolId)) {
    const seen = new Set(s.seen);
    seen.add(cardToolId);
    if (!s.following) return { state: { ...s, seen }, action: "none" };
    return { state: { following: true, target: "card", seen }, action: "card" };
  }
  if (!cardToolId && s.target === "card") {
    // The card was answered or withdrawn: plain following resumes.
    const state: ScrollState = { ...s, target: "bottom" };
    return { state, action: s.following ? "bottom" : "none" };
  }
  if (!s.following || s.target === "card") return { state: s, action: "none" };
  return { state: s, action: "bottom" };
}

/**
 * afterUserScroll records where the reader went. Reaching the bottom means
 * following it again; anywhere else means reading history, except that a
 * reader still at the card the pane scrolled to keeps that target.
 */
export function afterUserScroll(s: ScrollState, atBottom: boolean): ScrollState {
  if (atBottom) {
    if (s.following && s.target === "bottom") return s;
    return { ...s, following: true, target: "bottom" };
  }
  if (!s.following) return s;
  return { ...s, following: false, target: "bottom" };
}

/** atBottom says whether a scroll container is (nearly) scrolled to its end. */
export function atBottom(scrollTop: number, clientHeight: number, scrollHeight: number, slack = 40): boolean {
  return scrollHeight - (scrollTop + clientHeight) <= slack;
}

/** shouldLoadOlder says whether the reader is close enough to the top to page back. */
export function shouldLoadOlder(scrollTop: number, clientHeight: number, hasMoreBefore: boolean, loading: boolean): boolean {
  return hasMoreBefore && !loading && scrollTop < Math.max(400, clientHeight);
}
