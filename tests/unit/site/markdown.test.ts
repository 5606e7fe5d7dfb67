// Replies are rendered as Markdown and put into the page as HTML: whatever a reply says, the HTML holds only the
// elements and attributes Markdown makes, and no link target that runs script.
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../../site/src/lib/markdown'

const TAGS = new Set(['p', 'br', 'em', 'strong', 'del', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input'])
const ATTRS = new Set(['href', 'title', 'align', 'start', 'type', 'checked', 'disabled', 'class'])

const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&colon;/gi, ':').replace(/&tab;/gi, '\t').replace(/&newline;/gi, '\n').replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>')

/** What is wrong with the HTML, read the way a browser's tokenizer reads tags and attributes. */
function problems(html: string): string[] {
  const found: string[] = []
  for (const m of html.matchAll(/<\/?([a-zA-Z][^\s/>]*)([^>]*)>?/g)) {
    const [tag, name, rest] = m
    if (!TAGS.has(name.toLowerCase())) found.push(`tag ${tag}`)
    if (tag.startsWith('</')) continue
    for (const a of rest.matchAll(/([^\s"'=<>`/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      const attr = a[1].toLowerCase()
      if (!ATTRS.has(attr)) found.push(`attribute ${attr} in ${tag}`)
      const value = decode(a[2] ?? a[3] ?? a[4] ?? '').replace(/[\u0000-\u0020]/g, '')
      if (attr === 'href' && !/^(https?:|mailto:|tel:|\/[^/\\]|\/$|#|\?)/i.test(value)) found.push(`href ${value}`)
    }
  }
  return found
}

const attacks: [string, string][] = [
  ['script tag', '<script>alert(1)</script>'],
  ['script tag mid-text', 'hello <script>alert(1)</script> there'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['svg onload', '<svg onload=alert(1)>'],
  ['iframe', '<iframe src="javascript:alert(1)"></iframe>'],
  ['style tag', '<style>body{display:none}</style>'],
  ['style attribute', '<p style="position:fixed;inset:0">x</p>'],
  ['form', '<form action="https://evil.example"><button>go</button></form>'],
  ['anchor html', '<a href="javascript:alert(1)">x</a>'],
  ['raw block unterminated tag', '<script>\n<img src=x onerror=alert(1)//'],
  ['text after inline script', 'a <script> <img src=x onerror=alert(1)// b'],
  ['text after inline pre', 'a <pre> <img src=x onerror=alert(1)// b'],
  ['javascript link', '[click](javascript:alert(1))'],
  ['JavaScript mixed case', '[click](JaVaScRiPt:alert(1))'],
  ['javascript with tab', '[click](java\tscript:alert(1))'],
  ['entity-encoded scheme', '[click](&#106;avascript:alert(1))'],
  ['hex entity scheme', '[click](&#x6A;avascript&#x3A;alert(1))'],
  ['named entity colon', '[click](javascript&colon;alert(1))'],
  ['data url', '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['vbscript', '[click](vbscript:msgbox(1))'],
  ['protocol-relative', '[click](//evil.example/x)'],
  ['backslash host', '[click](/\\evil.example)'],
  ['angle-bracket target', '[click](<javascript:alert(1)>)'],
  ['reference link', '[click][x]\n\n[x]: javascript:alert(1)'],
  ['autolink javascript', '<javascript:alert(1)>'],
  ['image javascript', '![x](javascript:alert(1))'],
  ['image onerror in alt', '![x" onerror="alert(1)](https://example.com/a.png)'],
  ['title breaking out', '[a](https://example.com "x\\" onmouseover=\\"alert(1))'],
  ['href breaking out', '[a](https://example.com/"onmouseover="alert(1))'],
  ['html comment', '<!-- <script>alert(1)</script> -->'],
  ['cdata', '<![CDATA[<script>alert(1)</script>]]>'],
  ['nested in list', '- <img src=x onerror=alert(1)>\n- [x](javascript:alert(1))'],
  ['nested in table', '| a |\n|---|\n| <script>alert(1)</script> |'],
  ['nested in blockquote', '> <iframe src=x>'],
  ['nested in emphasis', '**<svg/onload=alert(1)>**'],
  ['code span', '`<script>alert(1)</script>`'],
  ['code block', '```html\n<script>alert(1)</script>\n```'],
  ['heading', '# <img src=x onerror=alert(1)>'],
  ['null byte', '[x](java\u0000script:alert(1))'],
  ['object', '<object data="javascript:alert(1)"></object>'],
  ['math', '<math><mi xlink:href="javascript:alert(1)">x</mi></math>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['base', '<base href="javascript:alert(1)//">'],
  ['unicode escapes in text', '\\<script\\>alert(1)\\</script\\>'],
  ['Chinese text with script', '你好<script>alert(1)</script>世界'],
]

describe('renderMarkdown keeps a reply from becoming markup', () => {
  it.each(attacks)('%s', (_, text) => {
    const html = renderMarkdown(text)
    expect(problems(html)).toEqual([])
  })

  it('shows raw HTML as the text it is', () => {
    expect(renderMarkdown('<b>bold?</b>')).toContain('&lt;b&gt;bold?&lt;/b&gt;')
    expect(renderMarkdown('a <script> <img src=x onerror=alert(1)// b')).toContain('&lt;img src=x onerror=alert(1)//')
  })

  it('drops an unsafe target but keeps the words of the link', () => {
    const html = renderMarkdown('[call me](javascript:alert(1))')
    expect(html).toContain('call me')
    expect(html).not.toContain('<a')
  })
})

describe('renderMarkdown renders what replies and help lines use', () => {
  const cases: [string, string, string][] = [
    ['bold', '**brave**', '<strong>brave</strong>'],
    ['italic', '_calm_', '<em>calm</em>'],
    ['line break', 'one\ntwo', 'one<br>two'],
    ['paragraphs', 'one\n\ntwo', '<p>one</p>\n<p>two</p>'],
    ['list', '- a\n- b', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>'],
    ['ordered list', '1. a\n2. b', '<ol>\n<li>a</li>\n<li>b</li>\n</ol>'],
    ['code', 'run `npm start`', '<code>npm start</code>'],
    ['web link', '[988 Lifeline](https://988lifeline.org)', '<a href="https://988lifeline.org">988 Lifeline</a>'],
    ['phone link', '[Call 1925](tel:1925)', '<a href="tel:1925">Call 1925</a>'],
    ['mail link', '<help@example.com>', '<a href="mailto:help@example.com">help@example.com</a>'],
    ['bare url', 'see https://example.com/a?b=1&c=2', '<a href="https://example.com/a?b=1&amp;c=2">'],
    ['site path', '[settings](/app/settings/help)', '<a href="/app/settings/help">settings</a>'],
    ['title', '[a](https://example.com "The title")', 'title="The title"'],
    ['strikethrough', '~~old~~', '<del>old</del>'],
    ['Chinese', '**勇敢**的你', '<strong>勇敢</strong>的你'],
    ['ampersand', 'salt & pepper', 'salt &amp; pepper'],
  ]
  it.each(cases)('%s', (_, text, want) => expect(renderMarkdown(text)).toContain(want))
})
