// Every route of the OpenAPI document, as every role, with bodies and queries no client should send: never a
// 5xx, never a hang, and nothing changed by a request that was refused. Bounded and seeded (FUZZ_SEED,
// FUZZ_CASES to vary); bench/fuzz.ts runs the long version.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '../helpers/testApp'
import { SESSION_ENDING, fuzzActors, fuzzApi } from '../helpers/apiFuzz'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

test('no route answers a malformed request with a 5xx, a hang, or a change', async () => {
  const actors = await fuzzActors(app)
  const seed = Number(process.env.FUZZ_SEED ?? 20261125)
  const result = await fuzzApi(app, actors, {
    seed,
    casesPerRoute: Number(process.env.FUZZ_CASES ?? 5),
    anonymousOnly: SESSION_ENDING,
    log: (s) => console.log(`seed ${seed}: ${s}`),
  })
  expect(result.requests).toBeGreaterThan(1000)
  expect(result.findings).toEqual([])
}, 600_000)
