// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { escapeHTML, renderMarkdown } from "./markdown";

describe("renderMarkdown", () => {
  it("renders ordinary markdown", () => {
    const html = renderMarkdown("# Title\n\n**bold** and `code`\n\n- a\n- b");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<li>a</li>");
  });

  // Each payload is checked on the parsed result: no dangerous element and
  // no event-handler or script URL attribute may survive, and the payload
  // may at most appear as visible text.
  const attacks: { name: string; src: string }[] = [
    { name: "script tag", src: "hi <script>window.__xss=1</script>" },
    { name: "img onerror", src: '<img src=x onerror="window.__xss=1">' },
    { name: "svg onload", src: "<svg onload=alert(1)></svg>" },
    { name: "iframe", src: '<iframe src="javascript:alert(1)"></iframe>' },
    { name: "javascript link", src: "[click](javascript:alert(1))" },
    { name: "data link", src: "[click](data:text/html,<script>alert(1)</script>)" },
    { name: "markdown image", src: "![x](https://example.invalid/x.png)" },
    { name: "inline event in html block", src: "<div onclick=alert(1)>x</div>" },
    { name: "style tag", src: "<style>body{display:none}</style>" },
    { name: "form", src: '<form action="/api/v1/runs"><button>go</button></form>' },
    { name: "html inside a list", src: "- <img src=x onerror=alert(1)>\n- <a href='javascript:x'>y</a>" },
    { name: "autolink javascript", src: "<javascript:alert(1)>" },
  ];
  const banned = new Set(["SCRIPT", "IMG", "SVG", "IFRAME", "STYLE", "FORM", "BUTTON", "DIV", "OBJECT", "EMBED"]);
  for (const a of attacks) {
    it(`neutralizes ${a.name}`, () => {
      const html = renderMarkdown(a.src);
      const box = document.createElement("div");
      box.innerHTML = html;
      for (const el of box.querySelectorAll("*")) {
        expect(banned.has(el.tagName), `element ${el.tagName} in ${html}`).toBe(false);
        for (const attr of el.attributes) {
          expect(attr.name.startsWith("on"), `attribute ${attr.name} in ${html}`).toBe(false);
          expect(/^\s*(javascript|data|vbscript):/i.test(attr.value), `${attr.name}=${attr.value}`).toBe(false);
        }
      }
    });
  }

  it("shows raw html as literal text", () => {
    const html = renderMarkdown("a <b>tag</b>");
    expect(html).toContain("&lt;b&gt;tag&lt;/b&gt;");
  });

  it("hardens links", () => {
    const html = renderMarkdown("[docs](https://example.com/x)");
    expect(html).toContain('href="https://example.com/x"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('target="_blank"');
  });

  it("task list checkboxes stay inert", () => {
    const html = renderMarkdown("- [x] done\n- [ ] todo");
    expect(html).toMatch(/<input[^>]*disabled/);
  });

  it("escapeHTML", () => {
    expect(escapeHTML(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("prerenderMarkdown", () => {
  it("gives the same result as one-by-one rendering, and stays inert", async () => {
    const { prerenderMarkdown: pre } = await import("./markdown");
    const srcs = [
      "# A\n\n- x\n- y",
      "text </section><script>window.__xss=1</script><section>",
      "<img src=x onerror=alert(1)> and **bold**",
      "[a](javascript:alert(1)) `code`",
      "| a | b |\n|---|---|\n| 1 | 2 |",
      "unclosed <section><div> tags",
    ].map((s, i) => `m${i}-batch\n\n` + s);
    pre(srcs);
    const batched = srcs.map((s) => renderMarkdown(s)); // cache hits now
    const { Marked } = await import("marked");
    expect(Marked).toBeTruthy();
    for (const [i, html] of batched.entries()) {
      const box = document.createElement("div");
      box.innerHTML = html;
      expect(box.querySelectorAll("script, img, section, div").length, `#${i}: ${html}`).toBe(0);
      expect(html, `#${i}`).toContain(`m${i}-batch`);
    }
    expect(batched[0]).toContain("<h1>A</h1>");
    expect(batched[4]).toContain("<table>");
  });
});
