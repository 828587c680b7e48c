// The top bar of every screen: an optional back link, a title, actions.

import type { JSX } from "solid-js";
import { Show } from "solid-js";
import { linkHandler } from "../router";

export function Header(props: { title: JSX.Element; back?: string; sub?: JSX.Element; children?: JSX.Element }) {
  return (
    <header class="bar">
      <Show when={props.back}>
        <a class="icon-btn" href={props.back} onClick={linkHandler} aria-label="Back">
          ‹
        </a>
      </Show>
      <div class="bar-title">
        <h1>{props.title}</h1>
        <Show when={props.sub}>
          <div class="bar-sub">{props.sub}</div>
        </Show>
      </div>
      <div class="bar-actions">{props.children}</div>
    </header>
  );
}
