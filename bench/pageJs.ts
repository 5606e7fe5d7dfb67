// The JavaScript a page loads before the person does anything: every script response from navigation until the
// network has been idle and the islands hydrated (client:idle and client:visible islands included), plus inline
// scripts, each gzip-compressed on its own as a server would send it. Chunks fetched later — on a click, on opening
// a dialog — are not counted. Shared by bench/bundle.ts and the page-weight journey.
import { gzipSync } from 'node:zlib'
import type { Page, Response } from 'playwright-core'

export interface PageJs {
  /** Script URLs (path only) with their gzipped size in bytes. */
  scripts: { path: string; gzip: number }[]
  inlineGzip: number
  gzip: number
}

export async function jsBeforeInteraction(page: Page, url: string): Promise<PageJs> {
  const bodies = new Map<string, Promise<Buffer | null>>()
  const onResponse = (res: Response) => {
    const type = res.headers()['content-type'] ?? ''
    if (res.request().resourceType() === 'script' || type.includes('javascript')) bodies.set(new URL(res.url()).pathname, res.body().catch(() => null))
  }
  page.on('response', onResponse)
  try {
    await page.goto(url, { waitUntil: 'networkidle' })
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'), undefined, { timeout: 20_000 })
    // client:idle islands and what they import on mount arrive after the load event.
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(1500)
    await page.waitForLoadState('networkidle')
  } finally {
    page.off('response', onResponse)
  }
  const scripts: PageJs['scripts'] = []
  for (const [path, body] of bodies) {
    const b = await body
    if (b) scripts.push({ path, gzip: gzipSync(b).length })
  }
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src])')].filter((s) => !(s.getAttribute('type') ?? '').includes('json')).map((s) => s.textContent ?? '').join(''),
  )
  const inlineGzip = inline ? gzipSync(inline).length : 0
  return { scripts, inlineGzip, gzip: scripts.reduce((n, s) => n + s.gzip, inlineGzip) }
}

/** Budgets for JavaScript before interaction, gzipped KB. */
export const JS_TARGETS_KB = { login: 20, chat: 110, app: 120, admin: 140 } as const

export interface PageCase {
  label: string
  path: string
  target: number
}

/** Every page a person or an admin opens, with its budget; ids are the fresh character's and conversation's. */
export function pageCases(ids: { characterId: string; conversationId: string }) {
  const app = (label: string, path: string): PageCase => ({ label, path, target: JS_TARGETS_KB.app })
  const admin = (label: string, path: string): PageCase => ({ label, path, target: JS_TARGETS_KB.admin })
  return {
    signedOut: [{ label: 'login', path: '/login', target: JS_TARGETS_KB.login }, admin('admin login', '/admin/login'), admin('admin forgot password', '/admin/forgot-password')],
    onboarding: [app('onboarding (name step)', '/app/onboarding?step=get-username')],
    user: [
      app('select character', '/app/select-character'),
      { label: 'chat room', path: `/app/conversations/${ids.conversationId}/character/${ids.characterId}`, target: JS_TARGETS_KB.chat },
      app('upload chat history', `/app/characters/${ids.characterId}/upload-chat-history`),
      app('relationship editor', `/app/characters/${ids.characterId}/relations/edit`),
      app('settings', '/app/settings'),
      app('profile', '/app/settings/profile'),
      app('memories', '/app/settings/memories'),
      app('help', '/app/settings/help'),
      app('customer support', '/app/settings/customer-support'),
      app('plans', '/app/settings/subscription'),
      app('payment result', '/app/payments/result'),
    ],
    admin: [
      admin('admin dashboard', '/admin/app/dashboard'),
      admin('admin users', '/admin/app/users'),
      admin('admin content editors', '/admin/app/content-editors'),
      admin('admin content table', '/admin/app/content-editors/relationship-types'),
      admin('admin locales', '/admin/app/locale-management'),
      admin('admin settings', '/admin/app/settings'),
    ],
  }
}
