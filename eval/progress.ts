// Progress on the terminal: one redrawn bar on a TTY, one line per finished scenario otherwise (CI logs, pipes).

export interface Progress {
  tick(label: string): void
  done(): void
}

export function progressBar(total: number, stream: NodeJS.WriteStream = process.stderr, startAt = 0): Progress {
  let count = startAt
  const started = Date.now()
  const width = 24
  const line = (label: string) => {
    const filled = total ? Math.round((count / total) * width) : width
    const elapsed = (Date.now() - started) / 1000
    const rate = count > startAt ? elapsed / (count - startAt) : 0
    const left = rate ? ` ~${Math.ceil((rate * (total - count)) / 60)} min left` : ''
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count}/${total}${left}  ${label}`
  }
  if (stream.isTTY) stream.write(line('starting'))
  return {
    tick(label) {
      count++
      if (stream.isTTY) {
        const text = line(label)
        stream.write(`\r\x1b[2K${text.slice(0, Math.max(20, (stream.columns ?? 100) - 1))}`)
      } else stream.write(`${line(label)}\n`)
    },
    done() {
      if (stream.isTTY) stream.write('\n')
    },
  }
}
