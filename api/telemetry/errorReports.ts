// Uncaught render errors from the browser: the email is masked after its first 4 characters (spec §8), then
// the report goes to a Sentry-compatible DSN when configured, else to the server log.

export function maskEmail(email: string): string {
  return email.length <= 4 ? email : email.slice(0, 4) + '*'.repeat(Math.min(email.length - 4, 12))
}

/** Masks every email-looking text in a report, not only the reporter's own. */
export function maskEmails(text: string): string {
  return text.replace(/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi, (m) => maskEmail(m))
}

export interface ErrorReport {
  message: string
  stack?: string
  url?: string
  userEmail?: string | null
  userId?: string | null
}

export function parseDsn(dsn: string): { envelopeUrl: string; publicKey: string } | null {
  try {
    const u = new URL(dsn)
    const projectId = u.pathname.split('/').filter(Boolean).pop()
    if (!u.username || !projectId) return null
    const prefix = u.pathname.split('/').filter(Boolean).slice(0, -1).join('/')
    return { envelopeUrl: `${u.protocol}//${u.host}/${prefix ? prefix + '/' : ''}api/${projectId}/envelope/`, publicKey: u.username }
  } catch {
    return null
  }
}

export function errorReporter(dsn: string | null, log: (s: string) => void = console.error) {
  const target = dsn ? parseDsn(dsn) : null
  return async (r: ErrorReport) => {
    const report = {
      message: maskEmails(r.message).slice(0, 2000),
      stack: r.stack ? maskEmails(r.stack).slice(0, 8000) : undefined,
      url: r.url?.slice(0, 500),
      user: r.userEmail ? maskEmail(r.userEmail) : undefined,
    }
    if (!target) {
      log(`[client error] ${report.message} at ${report.url ?? '?'} user=${report.user ?? '-'}\n${report.stack ?? ''}`)
      return
    }
    const eventId = crypto.randomUUID().replace(/-/g, '')
    const event = {
      event_id: eventId,
      timestamp: Date.now() / 1000,
      platform: 'javascript',
      level: 'error',
      exception: { values: [{ type: 'Error', value: report.message, stacktrace: undefined }] },
      extra: { stack: report.stack, url: report.url },
      user: report.user ? { email: report.user, id: r.userId ?? undefined } : undefined,
    }
    const envelope = [JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString() }), JSON.stringify({ type: 'event' }), JSON.stringify(event)].join('\n')
    await fetch(target.envelopeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-sentry-envelope', 'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${target.publicKey}` },
      body: envelope,
      signal: AbortSignal.timeout(5000),
    }).catch((e) => log(`[client error] could not reach the error-reporting service: ${(e as Error).message}`))
  }
}
