// A run's conversational state as a small coloured badge.

import type { State } from "../api";
import { stateLabel } from "../lib/format";

export function StateBadge(props: { state: State }) {
  return (
    <span class={`badge st-${props.state}`} data-state={props.state}>
      {stateLabel[props.state] ?? props.state}
    </span>
  );
}
