import { Marked, type Tokens } from 'marked';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const safeUrl = (href: string) => /^(https?:|mailto:|#)/i.test(href.trim());

/**
 * Markdown to HTML for model output and documents: raw HTML in the source is shown as text (comments are hidden), and links
 * keep only http(s), mailto and anchors, so nothing a model writes can run in the window.
 */
const md = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // A comment is hidden, as every Markdown viewer hides it (a document's `<!-- erasmus: describes commit … -->` stamp).
    html: ({ text }: Tokens.HTML | Tokens.Tag) => (/^\s*<!--[\s\S]*?-->\s*$/.test(text) ? '' : escapeHtml(text)),
    link({ href, title, tokens }: Tokens.Link) {
      const text = this.parser.parseInline(tokens);
      if (!safeUrl(href)) return text;
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${t} target="_blank" rel="noreferrer noopener">${text}</a>`;
    },
    image({ text }: Tokens.Image) {
      return escapeHtml(text);
    },
  },
});

export function renderMarkdown(source: string): string {
  return md.parse(source, { async: false });
}

/** One line of markdown (code, emphasis, links) without the paragraph around it. */
export function renderInlineMarkdown(source: string): string {
  return md.parseInline(source, { async: false });
}
