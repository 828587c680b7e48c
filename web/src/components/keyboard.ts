// Typing inside a card on a phone: the on-screen keyboard covers the
// bottom of the screen, and the card's submit button sits below the text
// field. While a field inside a card has the focus, the chat pane is
// scrolled so that the field and the card's next submit button stay
// inside the visual viewport, above the keyboard and the composer.

import { onCleanup, onMount } from "solid-js";

const fieldSel = 'textarea, input[type="text"], input:not([type])';
const margin = 8;

/** submitAfter is the card's button that submits what field holds: the first primary or danger button after it. */
function submitAfter(field: Element): HTMLElement | null {
  const card = field.closest("[data-card]");
  if (!card) return null;
  const after = [...card.querySelectorAll<HTMLElement>("button")].filter(
    (b) => field.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING,
  );
  return after.find((b) => b.matches(".primary, .danger")) ?? after[0] ?? null;
}

/** visibleBottom is the lowest y of the pane the reader can see now. */
function visibleBottom(pane: HTMLElement): number {
  const vv = window.visualViewport;
  const viewBottom = vv ? vv.offsetTop + vv.height : window.innerHeight;
  return Math.min(viewBottom, pane.getBoundingClientRect().bottom);
}

/** reveal scrolls pane so field's submit button is visible, never hiding the field's top. */
export function reveal(pane: HTMLElement, field: HTMLElement): void {
  const btn = submitAfter(field);
  if (!btn) return;
  const top = pane.getBoundingClientRect().top;
  const bottom = visibleBottom(pane);
  const need = btn.getBoundingClientRect().bottom + margin - bottom;
  if (need <= 0) return;
  const room = field.getBoundingClientRect().top - top - margin;
  const by = Math.min(need, Math.max(0, room));
  if (by > 0) pane.scrollTop += by;
}

/** trackCardKeyboard keeps a focused card field's submit button in view; call inside a component. */
export function trackCardKeyboard(pane: () => HTMLElement | undefined): void {
  let field: HTMLElement | null = null;
  let frame = 0;
  const soon = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      const p = pane();
      if (p && field?.isConnected && document.activeElement === field) reveal(p, field);
    });
  };
  const onFocus = (e: FocusEvent) => {
    const t = e.target as HTMLElement | null;
    field = t && t.matches(fieldSel) && t.closest("[data-card]") ? t : null;
    if (field) soon();
  };
  onMount(() => {
    document.addEventListener("focusin", onFocus);
    document.addEventListener("input", soon);
    window.visualViewport?.addEventListener("resize", soon);
    window.visualViewport?.addEventListener("scroll", soon);
    window.addEventListener("resize", soon);
  });
  onCleanup(() => {
    cancelAnimationFrame(frame);
    document.removeEventListener("focusin", onFocus);
    document.removeEventListener("input", soon);
    window.visualViewport?.removeEventListener("resize", soon);
    window.visualViewport?.removeEventListener("scroll", soon);
    window.removeEventListener("resize", soon);
  });
}
