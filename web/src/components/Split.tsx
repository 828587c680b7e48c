// The desktop layout: on a wide screen (≥ 1024 px) the runs list stays on
// the left while the open run's chat fills the rest, so the operator
// switches runs without losing the list. Phones keep one screen at a time.

import { createSignal, onCleanup, type JSX } from "solid-js";

const wideQuery = "(min-width: 1024px)";

/** createWide is true while the window is wide enough for two panes. */
export function createWide(): () => boolean {
  const mq = window.matchMedia(wideQuery);
  const [wide, setWide] = createSignal(mq.matches);
  const on = () => setWide(mq.matches);
  mq.addEventListener("change", on);
  onCleanup(() => mq.removeEventListener("change", on));
  return wide;
}

/** Split shows list on the left and main on the right. */
export function Split(props: { list: JSX.Element; children: JSX.Element }) {
  return (
    <div class="split">
      <div class="split-list">{props.list}</div>
      <div class="split-main">{props.children}</div>
    </div>
  );
}

/** NoRunOpen fills the right pane while no run is open. */
export function NoRunOpen() {
  return (
    <div class="screen center muted split-empty" data-testid="no-run-open">
      <p>Open a run on the left to read it here.</p>
    </div>
  );
}
