// A small Copy button for a block of text (a command, an output).

import { copyText, flashCopied } from "../lib/copy";

export function CopyButton(props: { text: () => string; label?: string }) {
  return (
    <button
      type="button"
      class="copy"
      aria-label={props.label ?? "Copy"}
      onClick={async (e) => {
        const btn = e.currentTarget;
        flashCopied(btn, await copyText(props.text()));
      }}
    >
      Copy
    </button>
  );
}
