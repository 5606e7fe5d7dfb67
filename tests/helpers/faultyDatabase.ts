// A PostgreSQL that fails on demand, for tests of what the product does when the database goes away: a proxy in front
// of DATABASE_URL's server that reads the statements clients send (PostgreSQL's wire protocol) and can cut a
// connection under a chosen statement, as a server that dies mid-query, or answer new connections with a FATAL
// error, as a server that is starting up, shutting down or full.
import { createServer, connect, type Socket } from 'node:net'

export interface Refusal {
  /** The SQLSTATE PostgreSQL answers with, e.g. 57P03 cannot_connect_now, 53300 too_many_connections. */
  code: string
  message: string
}

export interface FaultyDatabase {
  /** DATABASE_URL, through the proxy. */
  url: string
  /** Connections whose client sends a statement this returns true for are cut before it reaches the server. */
  cut(when: ((statement: string) => boolean) | null): void
  /** New connections get this error instead of a session, and open ones are cut; null: accepted again. */
  refuse(refusal: Refusal | null): void
  /** How many connections were cut under a statement, and how many were refused, so far. */
  counts(): { cut: number; refused: number }
  close(): Promise<void>
}

/** PostgreSQL's ErrorResponse message ('E'): severity, code and text, each a field of one letter. */
function errorResponse({ code, message }: Refusal): Buffer {
  const fields = [['S', 'FATAL'], ['V', 'FATAL'], ['C', code], ['M', message]]
  const body = Buffer.concat([...fields.map(([k, v]) => Buffer.from(`${k}${v}\0`)), Buffer.from([0])])
  const head = Buffer.alloc(5)
  head.write('E')
  head.writeUInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}

const cString = (buf: Buffer, at: number) => {
  const end = buf.indexOf(0, at)
  return { text: buf.toString('utf8', at, end), next: end + 1 }
}

export async function startFaultyDatabase(databaseUrl: string): Promise<FaultyDatabase> {
  const target = new URL(databaseUrl)
  let cutWhen: ((statement: string) => boolean) | null = null
  let refusal: Refusal | null = null
  const open = new Set<() => void>()
  const counts = { cut: 0, refused: 0 }

  const server = createServer((client) => {
    let upstream: Socket | null = null
    let pending = Buffer.alloc(0)
    let startup = true
    // Statement texts by prepared-statement name: a Bind names its statement, sent once per connection with Parse.
    const statements = new Map<string, string>()
    const end = () => {
      open.delete(end)
      client.destroy()
      upstream?.destroy()
    }
    open.add(end)
    client.on('error', end)
    client.on('close', end)

    // The statement a message runs, if it is one that runs or names one.
    const statementOf = (message: Buffer): string | null => {
      const type = String.fromCharCode(message[0])
      if (type === 'Q') return cString(message, 5).text
      if (type === 'P') {
        const name = cString(message, 5)
        const text = cString(message, name.next).text
        statements.set(name.text, text)
        return text
      }
      if (type === 'B') {
        const portal = cString(message, 5)
        return statements.get(cString(message, portal.next).text) ?? null
      }
      return null
    }

    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      const whole: Buffer[] = []
      for (;;) {
        // The first message (startup, or a request for TLS or a cancel) has no type byte.
        const length = startup ? (pending.length >= 4 ? pending.readUInt32BE(0) : Infinity) : pending.length >= 5 ? pending.readUInt32BE(1) + 1 : Infinity
        if (pending.length < length) break
        const message = pending.subarray(0, length)
        pending = pending.subarray(length)
        if (startup) {
          // 196608 is protocol 3.0: the startup message proper, after which messages are typed.
          startup = message.readUInt32BE(4) !== 196608
          if (!startup && refusal) {
            counts.refused++
            client.end(errorResponse(refusal))
            return
          }
        } else {
          const statement = statementOf(message)
          if (statement !== null && cutWhen?.(statement)) {
            counts.cut++
            end()
            return
          }
        }
        whole.push(message)
      }
      if (!whole.length) return
      if (!upstream) {
        upstream = connect(Number(target.port || 5432), target.hostname)
        upstream.on('data', (data) => client.write(data))
        upstream.on('error', end)
        upstream.on('close', end)
      }
      upstream.write(Buffer.concat(whole))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const url = new URL(databaseUrl)
  url.hostname = '127.0.0.1'
  url.port = String(port)

  return {
    url: url.toString(),
    cut(when) {
      cutWhen = when
    },
    refuse(r) {
      refusal = r
      if (r) for (const end of [...open]) end()
    },
    counts: () => ({ ...counts }),
    async close() {
      for (const end of [...open]) end()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
