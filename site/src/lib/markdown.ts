// Bot replies and help lines as Markdown, never as HTML. The output is safe by construction rather than cleaned
// afterwards: marked escapes text, code and attribute values; raw HTML in a text is shown as text; images are
// dropped; a link keeps its target only for web, mail and phone addresses and paths on this site — any other
// target (javascript:, data:, an entity-encoded scheme, a protocol-relative //host) leaves just the link's words.
// Browser-side it loads on demand (lib/markdownLater.ts).
import { Marked, type Tokens } from 'marked'

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Targets a link may keep, as written in the text (before any entity in it is decoded by the browser). */
export const SAFE_HREF = /^(?:(?:https?|mailto|tel):|\/(?![/\\])|#|\?)/i

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    image: () => '',
    // Text after a raw <script> or <pre> tag comes unescaped from the lexer (for HTML passthrough): escape it too.
    text: (token: Tokens.Text | Tokens.Escape) => ('escaped' in token && token.escaped ? escapeHtml(token.text) : false),
    link(token: Tokens.Link) {
      // false: marked's own rendering, which escapes the target and the title.
      return SAFE_HREF.test(token.href) ? false : this.parser.parseInline(token.tokens)
    },
  },
})

export function renderMarkdown(text: string): string {
  return marked.parse(text, { async: false }) as string
}
