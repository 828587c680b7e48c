// Sanitized markdown. renderMarkdown's output is the only HTML the app ever
// injects; everything else is bound as text.

import { renderMarkdown } from "../lib/markdown";

export function Markdown(props: { text: string; class?: string }) {
  return <div class={`md ${props.class ?? ""}`} innerHTML={renderMarkdown(props.text)} />;
}
