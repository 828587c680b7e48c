import { Show } from "solid-js";

/** Alert says what went wrong (role alert, read out at once), or nothing when nothing did. */
export function Alert(props: { error: string | undefined }) {
  return (
    <Show when={props.error}>
      <p class="error" role="alert">
        {props.error}
      </p>
    </Show>
  );
}

/** Note says what just happened (role status), or nothing. */
export function Note(props: { note: string | undefined }) {
  return (
    <Show when={props.note}>
      <p class="note" role="status">
        {props.note}
      </p>
    </Show>
  );
}
