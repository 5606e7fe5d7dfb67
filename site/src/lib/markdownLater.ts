// The Markdown renderer (lib/markdown.ts: marked and DOMPurify) is not part of a page's first load: it loads when
// the first text that is shown as Markdown appears. Until then — and on the server, where DOMPurify has no DOM —
// a text shows as escaped lines, the same on both sides so the island hydrates without a mismatch.
import { useEffect, useState } from 'react'

type Render = (text: string) => string

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
export const plainLines: Render = (text) => escapeHtml(text).replace(/\n/g, '<br>')

let loaded: Render | null = null
let loading: Promise<Render> | null = null
const load = () => (loading ??= import('./markdown').then((m) => (loaded = m.renderMarkdown)))

/** A renderer for Markdown texts: escaped lines until the Markdown renderer has loaded, which `wanted` starts. */
export function useMarkdown(wanted: boolean): Render {
  const [render, setRender] = useState<Render | null>(() => (typeof window === 'undefined' ? null : loaded))
  useEffect(() => {
    if (!wanted || render) return
    let live = true
    void load().then((r) => live && setRender(() => r))
    return () => {
      live = false
    }
  }, [wanted, render])
  return render ?? plainLines
}
