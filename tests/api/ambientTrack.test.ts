// The shipped background track moved from a WAV to Opus: the seed names the new file, and the migration moves
// rows that still name the old one, leaving a track an admin chose alone.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readFileSync, existsSync, statSync } from 'node:fs'
import { startTestApp, type TestApp } from '../helpers/testApp'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const MIGRATION = readFileSync(new URL('../../sql/0014_compressed_ambient_track.sql', import.meta.url), 'utf8')

test('the seeded track is the compressed file, which ships at most 150 KB', async () => {
  const rows = await app.ctx.sql<{ url: string }[]>`
    select field_values ->> 'url' as url from content_rows where slug = 'background-music' and seed_key = 'onboarding'`
  expect(rows.map((r) => r.url)).toEqual(['/audio/ideal-self-ambient.opus'])
  const file = new URL('../../site/public/audio/ideal-self-ambient.opus', import.meta.url)
  expect(existsSync(file)).toBe(true)
  expect(statSync(file).size).toBeLessThanOrEqual(150 * 1024)
  expect(existsSync(new URL('../../site/public/audio/ideal-self-ambient.wav', import.meta.url))).toBe(false)
})

test('the migration moves rows naming the old WAV and leaves other tracks alone', async () => {
  const [old] = await app.ctx.sql<{ id: string }[]>`
    insert into content_rows (slug, field_values) values ('background-music', ${app.ctx.sql.json({ url: '/audio/ideal-self-ambient.wav', volume: 40 })}) returning id`
  const [own] = await app.ctx.sql<{ id: string }[]>`
    insert into content_rows (slug, field_values) values ('background-music', ${app.ctx.sql.json({ url: 'https://cdn.example/my-track.mp3', volume: 30 })}) returning id`
  await app.ctx.sql.unsafe(MIGRATION)
  const after = await app.ctx.sql<{ id: string; url: string; volume: number }[]>`
    select id, field_values ->> 'url' as url, (field_values ->> 'volume')::int as volume from content_rows where id in (${old.id}, ${own.id})`
  expect(after.find((r) => r.id === old.id)).toMatchObject({ url: '/audio/ideal-self-ambient.opus', volume: 40 })
  expect(after.find((r) => r.id === own.id)).toMatchObject({ url: 'https://cdn.example/my-track.mp3', volume: 30 })
  await app.ctx.sql`delete from content_rows where id in (${old.id}, ${own.id})`
})
