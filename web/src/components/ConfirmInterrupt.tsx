// Interrupt next to a pending card. Interrupting dismisses the question
// the card asks (the CLI records it as declined), so it asks first.

import { createSignal, Show } from "solid-js";

export function ConfirmInterrupt(props: { disabled: boolean; onInterrupt: () => void }) {
  const [asking, setAsking] = createSignal(false);
  return (
    <Show
      when={asking()}
      fallback={
        <button class="btn" disabled={props.disabled} onClick={() => setAsking(true)} data-action="interrupt" aria-expanded="false">
          Interrupt
        </button>
      }
    >
      <div class="confirm-inline" role="alertdialog" aria-label="Interrupt and dismiss the question?" data-confirm="interrupt">
        <span class="grow">Interrupting dismisses the question. Interrupt?</span>
        <button class="btn" onClick={() => setAsking(false)} data-action="cancel-interrupt">
          Keep
        </button>
        <button
          class="btn danger"
          disabled={props.disabled}
          onClick={() => {
            setAsking(false);
            props.onInterrupt();
          }}
          data-action="confirm-interrupt"
        >
          Interrupt
        </button>
      </div>
    </Show>
  );
}
