// Copying text to the clipboard. The Clipboard API needs a secure context
// (https, or localhost); lab reached over plain http on a LAN is not one,
// so the old select-and-copy way is the fallback.

export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== "undefined" && navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* denied: try the fallback */
  }
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.setAttribute("readonly", "");
  ta.style.position = "fixed";
  ta.style.opacity = "0";
  document.body.appendChild(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}

/** flashCopied shows on a button that the copy worked (or not), then restores it. */
export function flashCopied(btn: HTMLElement, ok: boolean): void {
  const was = btn.dataset.label ?? btn.textContent ?? "Copy";
  btn.dataset.label = was;
  btn.textContent = ok ? "Copied" : "Copy failed";
  btn.classList.toggle("copied", ok);
  setTimeout(() => {
    btn.textContent = was;
    btn.classList.remove("copied");
  }, 1500);
}
