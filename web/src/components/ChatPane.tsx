// The chat pane: the one scroll container of the chat screen. It renders
// the held messages with the pending card placed among them, follows new
// content only while the reader is at the bottom (or at a new card's top),
// and pages older windows in on scroll-up without moving what the reader
// looks at.

import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, type JSX } from "solid-js";
import type { Answer } from "../api";
import { cardToolId, ItemCache, placeItems } from "../lib/placement";
import { extendDown, extendUp, hiddenAbove, latest, liveRange, slice, trimLive, type Range } from "../lib/range";
import { afterContent, afterUserScroll, atBottom, initialScroll, shouldLoadOlder, type Action } from "../lib/scroll";
import type { Conversation } from "./conversation";
import { DialogCard } from "./DialogCard";
import { trackCardKeyboard } from "./keyboard";
import { MessageView } from "./MessageView";

/** At most maxRows message rows are rendered; slices move by step rows. */
const maxRows = 300;
const step = 150;

export interface PaneProps {
  conv: Conversation;
  readOnly: boolean;
  onAnswer?: (a: Answer) => Promise<void>;
  /** Receives a function that scrolls the pending card into view. */
  bindShowCard?: (fn: () => void) => void;
  /** Rendered after the stream (queued replies, the working row). */
  footer?: JSX.Element;
  /** A line under the pending card (its answer waits for the connection), by tool_id. */
  cardNote?: (toolId: string) => string;
}

export function ChatPane(props: PaneProps) {
  let pane!: HTMLDivElement;
  let inner!: HTMLDivElement;
  const cache = new ItemCache();
  let scroll = initialScroll();
  let programmatic = 0;
  const [following, setFollowing] = createSignal(true);
  trackCardKeyboard(() => pane);
  // The newest seq the reader has had on screen: what arrived after it
  // counts as new on the jump button.
  const [seenSeq, setSeenSeq] = createSignal(0);

  // The rendered slice of the held messages (see lib/range): bounded, so a
  // 10,000-message session scrolls as cheaply as a short one.
  const [range, setRange] = createSignal<Range>(liveRange);
  const held = () => props.conv.win().messages;
  const items = createMemo(() =>
    cache.stabilize(placeItems(slice(held(), range()), props.readOnly || !range().live ? null : props.conv.pending(), props.conv.partials())),
  );

  function setScrollTop(top: number) {
    programmatic++;
    pane.scrollTop = top;
    // Scroll events caused by this assignment arrive before the next frame.
    // Scroll events the reader caused meanwhile were ignored with these, so
    // look at the edges again once the window closes: a reader who reached
    // the top during it must not sit there with nothing loading.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (--programmatic === 0) checkEdges();
      }),
    );
  }

  function cardEl(): HTMLElement | null {
    return pane.querySelector<HTMLElement>("[data-card]");
  }

  function scrollToCard() {
    const el = cardEl();
    if (!el) return;
    const delta = el.getBoundingClientRect().top - pane.getBoundingClientRect().top - 8;
    setScrollTop(pane.scrollTop + delta);
  }

  function perform(a: Action) {
    if (a === "bottom") setScrollTop(pane.scrollHeight);
    else if (a === "card") scrollToCard();
  }

  /** newCount is how many held messages came after the last one the reader saw. */
  const newCount = () => {
    const ms = held();
    let n = 0;
    for (let i = ms.length - 1; i >= 0 && ms[i]!.seq > seenSeq(); i--) n++;
    return n;
  };

  /** noteSeen records the newest row at the pane's bottom edge as seen. */
  function noteSeen() {
    if (scroll.following) {
      const ms = held();
      if (ms.length) setSeenSeq(ms[ms.length - 1]!.seq);
      return;
    }
    const r = pane.getBoundingClientRect();
    const x = r.left + Math.min(r.width / 2, 200);
    for (const dy of [4, 24, 64]) {
      const row = document.elementFromPoint(x, r.bottom - dy)?.closest<HTMLElement>("[data-seq]");
      if (row && pane.contains(row)) {
        setSeenSeq((s) => Math.max(s, Number(row.dataset.seq)));
        return;
      }
    }
  }

  createEffect(
    on(items, (its) => {
      if (scroll.following) setRange((r) => trimLive(held(), r, maxRows));
      const r = afterContent(scroll, cardToolId(its));
      scroll = r.state;
      setFollowing(scroll.following);
      perform(r.action);
      fillIfShort();
      if (scroll.following) noteSeen();
    }),
  );

  onMount(() => {
    // Rows settle their height after they render (markdown, fonts, rows
    // the browser skipped with content-visibility), so a follower is kept
    // pinned to its target whenever the content's size changes.
    const ro = new ResizeObserver(() => {
      if (!scroll.following) return restoreAnchor();
      if (scroll.target === "card") scrollToCard();
      else setScrollTop(pane.scrollHeight);
    });
    ro.observe(inner);
    onCleanup(() => ro.disconnect());
    props.bindShowCard?.(() => {
      scrollToCard();
      scroll = { ...scroll, following: true, target: "card" };
      setFollowing(true);
    });
  });

  /**
   * The reader's anchor: the row at the top edge of the pane and its offset.
   * The pane keeps it in place itself (native scroll anchoring is off, as
   * Safari lacks it): whenever content changes size while the reader is
   * not following, the drift of this row is scrolled away before paint.
   */
  let anchorRec: { el: Element; top: number } | null = null;

  function rowAtTop(): Element | null {
    const r = pane.getBoundingClientRect();
    const x = r.left + Math.min(r.width / 2, 200);
    for (const dy of [2, 24, 64]) {
      const hit = document.elementFromPoint(x, r.top + dy)?.closest("[data-seq],[data-card-row]");
      if (hit && pane.contains(hit)) return hit;
    }
    return pane.querySelector("[data-seq],[data-card-row]");
  }

  function recordAnchor() {
    const el = rowAtTop();
    anchorRec = el ? { el, top: el.getBoundingClientRect().top } : null;
  }

  function restoreAnchor() {
    if (!anchorRec || !anchorRec.el.isConnected) return recordAnchor();
    const drift = anchorRec.el.getBoundingClientRect().top - anchorRec.top;
    if (Math.abs(drift) >= 1) setScrollTop(pane.scrollTop + drift);
  }

  /** showOlder renders held rows above the slice, or pages in the next older window. */
  async function showOlder() {
    if (hiddenAbove(held(), range())) {
      recordAnchor();
      setRange((r) => extendUp(held(), r, step, maxRows));
      restoreAnchor();
      return;
    }
    if (!props.conv.win().hasMoreBefore || props.conv.loadingOlder()) return;
    // Pin the slice's top first, so the merge itself renders nothing new.
    if (range().from === 0 && held().length) setRange((r) => ({ ...r, from: held()[0]!.seq }));
    recordAnchor();
    const ok = await props.conv.loadOlder();
    if (!ok) return;
    setRange((r) => extendUp(held(), r, step, maxRows));
    if (!scroll.following) restoreAnchor();
  }

  /** showNewer renders held rows below a slice that stopped short of the newest. */
  function showNewer() {
    if (range().live) return;
    recordAnchor();
    setRange((r) => extendDown(held(), r, step, maxRows));
    restoreAnchor();
  }

  /** fillIfShort pages back while the pane cannot scroll yet. */
  function fillIfShort() {
    const more = props.conv.win().hasMoreBefore || hiddenAbove(held(), range());
    if (more && !props.conv.loadingOlder() && pane.scrollHeight <= pane.clientHeight + 8) void showOlder();
  }

  let anchorFrame = 0;
  function onScroll() {
    if (programmatic > 0) return;
    // Reading layout on every scroll event would force it many times a
    // frame; once per frame is enough to know the reader's top row.
    if (!anchorFrame) anchorFrame = requestAnimationFrame(() => ((anchorFrame = 0), recordAnchor(), noteSeen()));
    const bottom = range().live && atBottom(pane.scrollTop, pane.clientHeight, pane.scrollHeight);
    scroll = afterUserScroll(scroll, bottom);
    setFollowing(scroll.following);
    checkEdges();
  }

  /** checkEdges pages older rows in near the top and newer ones near the bottom. */
  function checkEdges() {
    if (!pane) return;
    const more = props.conv.win().hasMoreBefore || hiddenAbove(held(), range());
    if (shouldLoadOlder(pane.scrollTop, pane.clientHeight, more, props.conv.loadingOlder())) void showOlder();
    else if (!range().live && pane.scrollHeight - pane.scrollTop - pane.clientHeight < pane.clientHeight) showNewer();
  }

  function jump() {
    if (!range().live) setRange(latest(held(), step));
    scroll = afterUserScroll(scroll, true);
    setFollowing(true);
    perform("bottom");
    noteSeen();
  }

  const answer = async (a: Answer) => {
    if (!props.onAnswer) throw new Error("read-only");
    await props.onAnswer(a);
    props.conv.reload();
  };

  return (
    <div class="chat-wrap">
      <div class="chat" ref={pane} onScroll={onScroll} data-testid="chat">
        <div class="chat-inner" ref={inner}>
          <Show when={props.conv.win().hasMoreBefore || hiddenAbove(held(), range())}>
            <div class="older muted small">{props.conv.loadingOlder() ? "Loading older messages…" : "Scroll up for older messages"}</div>
          </Show>
          <Show when={props.conv.loaded() && items().length === 0}>
            <p class="muted pad">No messages yet.</p>
          </Show>
          <For each={items()}>
            {(it) =>
              it.kind === "card" ? (
                <div class="msg card-row" data-card-row={it.dialog.tool_id}>
                  <DialogCard d={it.dialog} onAnswer={answer} onConflict={() => props.conv.reload()} />
                  <Show when={props.cardNote?.(it.dialog.tool_id)}>
                    {(n) => (
                      <p class="card-note" data-card-note>
                        {n()}
                      </p>
                    )}
                  </Show>
                </div>
              ) : it.kind === "partial" ? (
                <div class="msg assistant partial" data-partial={it.partial.after_seq}>
                  <div class="live-text">{it.partial.text}</div>
                  <span class="partial-tag">Interrupted: what the CLI showed, which it did not record (lab's copy)</span>
                </div>
              ) : (
                <MessageView m={it.message} />
              )
            }
          </For>
          <Show when={range().live}>{props.footer}</Show>
        </div>
      </div>
      <Show when={!following() && props.conv.loaded()}>
        {/* In the flow below the pane, not over it: it never hides text. */}
        <div class="jump-bar">
          <button class="jump" onClick={jump} aria-label={newCount() > 0 ? `Jump to latest: ${newCount()} new` : "Jump to latest"} data-new={newCount()}>
            ↓ {newCount() > 0 ? `${newCount()} new message${newCount() === 1 ? "" : "s"}` : "Latest"}
          </button>
        </div>
      </Show>
    </div>
  );
}
