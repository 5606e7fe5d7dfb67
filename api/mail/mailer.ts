// Outgoing mail over SMTP; with no SMTP configured (development only) mail is logged and kept in
// the mail_outbox table, where developers and tests read it.
import nodemailer from 'nodemailer'
import type { Sql } from '../db/database'

export interface Mail {
  to: string
  subject: string
  text: string
  html?: string
}

export type SendMail = (mail: Mail) => Promise<void>

export function createMailer(opts: { smtpUrl: string | null; from: string; sql: Sql; log?: (s: string) => void }): SendMail {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl)
    return async (mail) => {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
    }
  }
  const log = opts.log ?? ((s: string) => console.log(s))
  return async (mail) => {
    await opts.sql`insert into mail_outbox (to_address, subject, body_text, body_html)
                   values (${mail.to}, ${mail.subject}, ${mail.text}, ${mail.html ?? null})`
    log(`[mail] to ${mail.to}: ${mail.subject}\n${mail.text}`)
  }
}
