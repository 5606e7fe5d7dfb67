// A CPU profile of a signed-in call through a chosen layer, for finding where the time goes:
//   npx bun --cpu-prof --cpu-prof-dir=bench/out/prof bench/profileSelf.ts [elysia|astro|feedback]
// (`elysia`: GET /api/v1/self through the API app; `astro`: the same through the site's App; `feedback`: POST
// /api/v1/feedbacks/bot-response-message through the API app), then read the .cpuprofile in a profiler (self time
// by function).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../api/config'
import { startRuntime } from '../api/runtime'
import { exposeRuntime } from '../api/siteBridge'
import { siteDir } from '../scripts/build'

const layer = process.argv[2] ?? 'elysia'
const cfg = loadConfig({ ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'idealself-prof-')), LLM_PROVIDER: 'offline', PUBLIC_URL: 'http://localhost:4531' })
const rt = await startRuntime(cfg, { log: () => {} })
exposeRuntime(rt)
const { app: astro } = await import(join(siteDir, 'dist', 'server', 'entry.mjs'))
// With the Content-Length a client over HTTP sends, so the request reaches the app as it would from the server.
const api = (method: string, path: string, body?: unknown, cookie = '') => {
  const text = body === undefined ? undefined : JSON.stringify(body)
  const length: Record<string, string> = text === undefined ? {} : { 'content-length': String(Buffer.byteLength(text)) }
  return rt.app.handle(new Request(`http://localhost:4531/api/v1${path}`, { method, headers: { 'content-type': 'application/json', cookie, ...length }, body: text }))
}
const { idToken } = (await (await api('POST', '/auth/dev/token', { email: `prof-${Date.now()}@example.com`, name: 'Prof' })).json()) as { idToken: string }
const cookie = (await api('POST', '/auth/login/oauth', { idToken, strategy: 'google', isWeb: true })).headers.getSetCookie()[0].split(';')[0]

let call: () => Promise<Response>
if (layer === 'feedback') {
  // One reply of the person's Ideal Self to give feedback on, as bench/api.ts sets it up.
  const description = { userName: 'Prof', idealSelfDescription: 'A calm, brave writer' }
  await api('POST', '/chatbots/training-data/user-name', { userName: 'Prof' }, cookie)
  await api('POST', '/chatbots/training-data/improved-ideal-self-description', description, cookie)
  const { characterId } = (await (await api('POST', '/chatbots/characters?skipChatHistoryUpload=true', description, cookie)).json()) as { characterId: string }
  while (!((await (await api('GET', `/chatbots/characters/${characterId}`, undefined, cookie)).json()) as { isReady: boolean }).isReady) await Bun.sleep(200)
  const { id: conversationId } = (await (await api('POST', '/chatbots/conversations', { name: 'Prof' }, cookie)).json()) as { id: string }
  const reply = (await (await api('POST', `/chatbots/conversations/${conversationId}/character/${characterId}/chat?sse=false`, {
    text: 'I want to write every morning', currentDateTime: 'Sunday 2026-11-22 10:30:00',
  }, cookie)).json()) as { newChatbotMessage: { id: string } }
  const body = { messageId: reply.newChatbotMessage.id, feedbackText: 'This helped me start' }
  call = () => api('POST', '/feedbacks/bot-response-message', body, cookie)
} else {
  const req = () => new Request('http://localhost:4531/api/v1/self', { headers: { cookie } })
  call = layer === 'astro' ? () => astro.render(req(), { clientAddress: '127.0.0.1' }) : () => rt.app.handle(req())
}

const until = performance.now() + Number(process.env.SECONDS ?? 8) * 1000
let n = 0
await Promise.all(Array.from({ length: 50 }, async () => {
  while (performance.now() < until) {
    await (await call()).text()
    n++
  }
}))
console.log(`${layer}: ${n} requests`)
await rt.close()
