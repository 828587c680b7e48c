// Number keys in a focused dialog card: 1 picks the card's first option
// (or plan row), 2 the second, as the terminal's numbered pickers do.
// Keys typed into a text field stay text.

/** pickByNumber handles a keydown on a card; it returns whether it picked. */
export function pickByNumber(e: KeyboardEvent): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey || e.isComposing || !/^[1-9]$/.test(e.key)) return false;
  const target = e.target as HTMLElement | null;
  if (target?.closest("textarea, input:not([type=checkbox]):not([type=radio]), [contenteditable]")) return false;
  const card = e.currentTarget as HTMLElement;
  const choices = [...card.querySelectorAll<HTMLElement>("[data-option], [data-row]")].filter(
    (el) => !(el as HTMLButtonElement).disabled && !el.querySelector("input:disabled") && el.offsetParent !== null,
  );
  const el = choices[Number(e.key) - 1];
  if (!el) return false;
  e.preventDefault();
  el.click();
  return true;
}
