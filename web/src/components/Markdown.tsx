// Sanitized markdown. renderMarkdown's output is the only HTML the app ever
// injects; everything else is bound as text. Code blocks get a Copy button,
// and numbered lists room for their widest number, both added after the
// sanitized HTML is in place.

import { createEffect } from "solid-js";
import { renderMarkdown } from "../lib/markdown";
import { copyText, flashCopied } from "../lib/copy";

export function Markdown(props: { text: string; class?: string }) {
  let el!: HTMLDivElement;
  createEffect(() => {
    renderMarkdown(props.text); // track the text: a new one replaced the DOM
    for (const pre of el.querySelectorAll("pre")) {
      if (pre.querySelector(":scope > button.copy")) continue;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "copy";
      b.textContent = "Copy";
      b.setAttribute("aria-label", "Copy code");
      pre.prepend(b);
    }
    for (const ol of el.querySelectorAll("ol")) ol.dataset.digits = String(olDigits(ol));
  });
  const onClick = async (e: MouseEvent) => {
    const b = (e.target as HTMLElement).closest("button.copy");
    const pre = b?.parentElement;
    if (!b || !pre || pre.tagName !== "PRE") return;
    const code = pre.querySelector("code");
    flashCopied(b as HTMLElement, await copyText(code ? (code.textContent ?? "") : (pre.textContent ?? "")));
  };
  return <div ref={el} class={`md ${props.class ?? ""}`} innerHTML={renderMarkdown(props.text)} onClick={onClick} />;
}

/**
 * olDigits is how many digits the last number of an ordered list has. The
 * numbers sit in the list's left padding, which must fit "10." or "100.":
 * a fixed padding cut their first digit off.
 */
export function olDigits(ol: HTMLOListElement): number {
  const items = [...ol.children].filter((c) => c.tagName === "LI").length;
  const last = Math.max(1, (Number(ol.getAttribute("start")) || 1) + items - 1);
  return String(last).length;
}
