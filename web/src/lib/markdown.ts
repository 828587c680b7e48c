// Rendering the agent's markdown safely.
//
// Everything the agent writes is untrusted: it may echo a web page, a file
// or a tool output crafted to attack whoever reads it. Two layers keep it
// inert. Raw HTML in the markdown is not passed through at all but shown as
// literal text (as the terminal shows it), and the HTML that marked
// produces is then sanitized by DOMPurify with a small allow-list, which
// also drops javascript: and data: URLs. Only renderMarkdown's output may
// ever reach innerHTML.

import DOMPurify from "dompurify";
import { Marked } from "marked";

const md = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Raw HTML blocks and inline tags become visible text.
    html({ text }) {
      return escapeHTML(text);
    },
  },
});

const allowedTags = [
  "a", "b", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6",
  "hr", "i", "input", "li", "ol", "p", "pre", "s", "span", "strong", "table", "tbody",
  "td", "th", "thead", "tr", "ul",
];
const allowedAttrs = ["href", "title", "checked", "disabled", "type", "align", "start", "class"];

let hooked = false;

function purifier(): typeof DOMPurify {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        const href = node.getAttribute("href") ?? "";
        if (!/^(https?:|mailto:|#)/i.test(href)) node.removeAttribute("href");
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer nofollow");
      }
      if (node.tagName === "INPUT") {
        // Only GFM task-list checkboxes survive, and they stay inert.
        if (node.getAttribute("type") !== "checkbox") node.remove();
        else node.setAttribute("disabled", "");
      }
    });
  }
  return DOMPurify;
}

export function escapeHTML(s: string): string {
  return s.replace(/[&<>"']/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;",
  );
}

const cache = new Map<string, string>();
const cacheMax = 3000;

function sanitize(html: string): string {
  return purifier().sanitize(html, {
    ALLOWED_TAGS: allowedTags,
    ALLOWED_ATTR: allowedAttrs,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
}

function parse(src: string): string {
  try {
    return md.parse(src) as string;
  } catch {
    return "<pre>" + escapeHTML(src) + "</pre>";
  }
}

function remember(src: string, clean: string): void {
  if (cache.size >= cacheMax) cache.delete(cache.keys().next().value as string);
  cache.set(src, clean);
}

/**
 * renderMarkdown turns untrusted markdown into sanitized HTML. Results are
 * memoized (bounded), because the same message text is rendered again
 * whenever a window is rebuilt.
 */
export function renderMarkdown(src: string): string {
  const hit = cache.get(src);
  if (hit !== undefined) return hit;
  const clean = sanitize(parse(src));
  remember(src, clean);
  return clean;
}

/**
 * prerenderMarkdown renders many texts with one sanitizer pass, filling the
 * cache renderMarkdown reads. Most of DOMPurify's cost per call is setting
 * up a document to parse into, so a window of hundreds of messages is far
 * cheaper sanitized as one: each text is wrapped in its own <section>, the
 * sections are sanitized together (a section cannot be closed early from
 * inside, as the parser balances each one), then split apart again.
 */
export function prerenderMarkdown(srcs: readonly string[]): void {
  const todo = [...new Set(srcs.filter((s) => s !== "" && !cache.has(s)))];
  if (todo.length < 2) {
    todo.forEach(renderMarkdown);
    return;
  }
  const joined = todo.map((s) => "<section>" + parse(s) + "</section>").join("");
  const frag = purifier().sanitize(joined, {
    ALLOWED_TAGS: [...allowedTags, "section"],
    ALLOWED_ATTR: allowedAttrs,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  const sections = [...frag.childNodes].filter((n): n is HTMLElement => n.nodeName === "SECTION");
  if (sections.length !== todo.length) {
    // The structure did not survive as expected: fall back to one by one.
    todo.forEach(renderMarkdown);
    return;
  }
  sections.forEach((sec, i) => remember(todo[i]!, sec.innerHTML));
}
