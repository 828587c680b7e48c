// The chat pane: the one scroll container of the chat screen. It renders
// the held messages with the pending card placed among them, follows new
// content only while the reader is at the bottom (or at a new card's top),
// and pages older windows in on scroll-up without moving what the reader
// looks at.

import { createEffect, createMemo, createSignal, For, on, onMount, Show } from "solid-js";
import type { Answer } from "../api";
import { cardToolId, ItemCache, placeItems } from "../lib/placement";
import { afterContent, afterUserScroll, atBottom, initialScroll, shouldLoadOlder, type Action } from "../lib/scroll";
import type { Conversation } from "./conversation";
import { DialogCard } from "./DialogCard";
import { MessageView } from "./MessageView";

export interface PaneProps {
  conv: Conversation;
  readOnly: boolean;
  onAnswer?: (a: Answer) => Promise<void>;
  /** Receives a function that scrolls the pending card into view. */
  bindShowCard?: (fn: () => void) => void;
}

export function ChatPane(props: PaneProps) {
  let pane!: HTMLDivElement;
  const cache = new ItemCache();
  let scroll = initialScroll();
  let programmatic = 0;
  const [following, setFollowing] = createSignal(true);

  const items = createMemo(() =>
    cache.stabilize(placeItems(props.conv.win().messages, props.readOnly ? null : props.conv.pending())),
  );

  function setScrollTop(top: number) {
    programmatic++;
    pane.scrollTop = top;
    // Scroll events caused by this assignment arrive before the next frame.
    requestAnimationFrame(() => requestAnimationFrame(() => programmatic--));
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

  createEffect(
    on(items, (its) => {
      const r = afterContent(scroll, cardToolId(its));
      scroll = r.state;
      setFollowing(scroll.following);
      perform(r.action);
      fillIfShort();
    }),
  );

  onMount(() => {
    props.bindShowCard?.(() => {
      scrollToCard();
      scroll = { ...scroll, following: true, target: "card" };
      setFollowing(true);
    });
  });

  /** anchor finds the first message row visible at the top of the pane. */
  function anchor(): { el: Element; top: number } | null {
    const top = pane.getBoundingClientRect().top;
    for (const el of pane.querySelectorAll("[data-seq],[data-card]")) {
      const r = el.getBoundingClientRect();
      if (r.bottom > top) return { el, top: r.top };
    }
    return null;
  }

  async function loadOlder() {
    const before = anchor();
    const ok = await props.conv.loadOlder();
    if (!ok || !before || !before.el.isConnected) return;
    // Keep the row the reader was looking at where it was, whether or not
    // the browser's own scroll anchoring already did.
    const shift = before.el.getBoundingClientRect().top - before.top;
    if (Math.abs(shift) >= 1) setScrollTop(pane.scrollTop + shift);
  }

  /** fillIfShort pages back while the pane cannot scroll yet. */
  function fillIfShort() {
    const w = props.conv.win();
    if (w.hasMoreBefore && !props.conv.loadingOlder() && pane.scrollHeight <= pane.clientHeight + 8) void loadOlder();
  }

  function onScroll() {
    if (programmatic > 0) return;
    const bottom = atBottom(pane.scrollTop, pane.clientHeight, pane.scrollHeight);
    scroll = afterUserScroll(scroll, bottom);
    setFollowing(scroll.following);
    if (shouldLoadOlder(pane.scrollTop, pane.clientHeight, props.conv.win().hasMoreBefore, props.conv.loadingOlder())) void loadOlder();
  }

  function jump() {
    scroll = afterUserScroll(scroll, true);
    setFollowing(true);
    perform("bottom");
  }

  const answer = async (a: Answer) => {
    if (!props.onAnswer) throw new Error("read-only");
    await props.onAnswer(a);
    props.conv.reload();
  };

  return (
    <div class="chat-wrap">
      <div class="chat" ref={pane} onScroll={onScroll} data-testid="chat">
        <div class="chat-inner">
          <Show when={props.conv.win().hasMoreBefore}>
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
                </div>
              ) : (
                <MessageView m={it.message} />
              )
            }
          </For>
        </div>
      </div>
      <Show when={!following() && props.conv.loaded()}>
        <button class="jump" onClick={jump} aria-label="Jump to latest">
          ↓
        </button>
      </Show>
    </div>
  );
}
