// The top bar of every screen: an optional back link, a title, actions.
// A long title wraps to two lines and ends in an ellipsis; a tap on it
// shows it whole (and the full text is its tooltip). Below it, while the
// app is out of touch with lab, the one connection banner (conn false
// leaves it to the other screen beside this one).

import type { JSX } from "solid-js";
import { createSignal, Show } from "solid-js";
import { linkHandler } from "../router";
import { ConnBanner } from "./ConnBanner";

export function Header(props: { title: string; back?: string; sub?: JSX.Element; children?: JSX.Element; conn?: boolean }) {
  const [whole, setWhole] = createSignal(false);
  return (
    <>
      <header class="bar">
        <Show when={props.back}>
          <a class="icon-btn" href={props.back} onClick={linkHandler} aria-label="Back">
            ‹
          </a>
        </Show>
        <div class="bar-title">
          <h1
            classList={{ whole: whole() }}
            title={props.title}
            onClick={() => setWhole(!whole())}
            aria-expanded={whole()}
            data-testid="title"
          >
            {props.title}
          </h1>
          <Show when={props.sub}>
            <div class="bar-sub">{props.sub}</div>
          </Show>
        </div>
        <div class="bar-actions">{props.children}</div>
      </header>
      <Show when={props.conn !== false}>
        <ConnBanner />
      </Show>
    </>
  );
}
