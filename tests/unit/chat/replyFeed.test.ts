import { expect, test } from 'vitest'
import { replyFeed, type FeedItem } from '../../../api/chat/replyFeed'

async function collect(items: AsyncGenerator<FeedItem>) {
  const seen: FeedItem[] = []
  for await (const item of items) seen.push(item)
  return seen
}

test('a late reader gets what it missed as one delta, then the rest as it comes', async () => {
  const feed = replyFeed()
  feed.push('Hello ')
  feed.push('there')
  const reading = collect(feed.read(1000))
  await Bun.sleep(5)
  feed.push('!')
  feed.close()
  expect(await reading).toEqual([{ delta: 'Hello there' }, { delta: '!' }])
})

test('the writer never waits for readers, and every reader sees everything', async () => {
  const feed = replyFeed()
  const first = collect(feed.read(1000))
  for (const word of ['a', 'b', 'c']) feed.push(word)
  feed.close()
  expect((await first).map((i) => ('delta' in i ? i.delta : '')).join('')).toBe('abc')
  expect(await collect(feed.read(1000))).toEqual([{ delta: 'abc' }])
})

test('a quiet feed reports idle (for heartbeats) and keeps going', async () => {
  const feed = replyFeed()
  const reading = collect(feed.read(20))
  await Bun.sleep(70)
  feed.push('late')
  feed.close()
  const items = await reading
  expect(items.filter((i) => 'idle' in i).length).toBeGreaterThanOrEqual(2)
  expect(items.at(-1)).toEqual({ delta: 'late' })
})

test('an aborted reader stops at once; the feed does not care', async () => {
  const feed = replyFeed()
  const client = new AbortController()
  const reading = collect(feed.read(10_000, client.signal))
  feed.push('one')
  await Bun.sleep(5)
  client.abort()
  expect(await reading).toEqual([{ delta: 'one' }])
  feed.push('two')
  feed.close()
  expect(await collect(feed.read(10))).toEqual([{ delta: 'onetwo' }])
})
