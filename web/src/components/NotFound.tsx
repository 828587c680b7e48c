// What a link to a run or session that does not exist shows: no chat, no
// Stop, no Reply; just where to go instead.

import { Header } from "./Header";
import { linkHandler } from "../router";

export function NotFound(props: { what: string; id: string; back: string; backLabel: string }) {
  return (
    <div class="screen">
      <Header title="Not found" back={props.back} />
      <main class="scroll">
        <div class="notice" data-testid="not-found">
          <p>
            There is no {props.what} <span class="mono">{props.id}</span>. It may have been removed, or the link is wrong.
          </p>
          <a class="btn" href={props.back} onClick={linkHandler}>
            {props.backLabel}
          </a>
        </div>
      </main>
    </div>
  );
}
