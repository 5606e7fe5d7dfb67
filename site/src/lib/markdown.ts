// Bot replies as Markdown, never as HTML: raw HTML in a reply is shown as text, and the result is sanitised.
import { Marked } from 'marked'
import DOMPurify from 'dompurify'

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
})

export function renderMarkdown(text: string): string {
  // DOMPurify needs a DOM; on the server the reply is shown as escaped text until the island hydrates.
  if (typeof window === 'undefined') return escapeHtml(text).replace(/\n/g, '<br>')
  const html = marked.parse(text, { async: false }) as string
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'img', 'iframe', 'form'], FORBID_ATTR: ['style'] })
}
