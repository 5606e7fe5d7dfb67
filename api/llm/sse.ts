// Server-sent events framing as OpenAI-compatible servers use it (integrations §4, WHATWG event stream rules).

/**
 * Yields each event's data (several `data:` lines joined with "\n"), up to and including "[DONE]". Comments and
 * other fields are skipped. Leaving the loop early cancels the body.
 */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let data: string[] = []
  try {
    while (true) {
      const { done, value } = await reader.read()
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true })
      // A "\r" at the very end may be the first half of "\r\n", so it only ends a line once more text arrives.
      const lines = buffer.split(done ? /\r\n|\r|\n/ : /\r\n|\r(?!$)|\n/)
      buffer = lines.pop() ?? ''
      if (done && buffer) lines.push(buffer, '')
      for (const line of lines) {
        if (line === '') {
          if (!data.length) continue
          const event = data.join('\n')
          data = []
          yield event
          if (event === '[DONE]') return
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':')
          const field = colon < 0 ? line : line.slice(0, colon)
          if (field === 'data') data.push(colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, ''))
        }
      }
      if (done) {
        // Servers that close without the final blank line still meant their last event.
        if (data.length) yield data.join('\n')
        return
      }
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
}
