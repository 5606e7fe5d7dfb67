/**
 * The merge rule of re-imports (relations/proposedGraph.ts), checked in every order of imports and confirmations:
 * the same person (same name, or a longer or shorter form of it across LINE and WhatsApp) is one card; new people
 * are added; what the person confirmed or edited is never dropped or overwritten; proposals never confirmed are
 * offered again.
 */
import { describe, expect, test } from 'vitest'
import { mergePeople, type GraphPerson, type ProposedRelation } from '../../../api/relations/proposedGraph'

const person = (name: string, types: string[], closeness: number, messageCount = 10, lastMessageAt = '2024-03-01T10:00:00'): ProposedRelation => ({
  name, types, closeness, messageCount, userMessageCount: messageCount, lastMessageAt,
})

const names = (graph: GraphPerson[]) => graph.map((p) => p.name).sort()

describe('one import into a graph', () => {
  test.each<[string, string, string]>([
    ['same name', 'Jun', 'Jun'],
    ['case and punctuation', 'dana w', 'Dana W.'],
    ['full-width letters', 'Ｄａｎａ', 'Dana'],
    ['short form on one app', 'Dana', 'Dana Whitfield'],
    ['long form on the other', 'Dana Whitfield', 'Dana'],
    ['CJK given name', '小美', '陳小美'],
    ['CJK full name later', '陳小美', '小美'],
    ['middle name left out', 'Anna Lee', 'Anna Mae Lee'],
  ])('%s: one card', (_label, first, second) => {
    const graph = mergePeople(mergePeople([], [person(first, ['CLOSE_FRIEND'], 3)]), [person(second, ['COLLEAGUE'], 2)])
    expect(graph).toHaveLength(1)
    // A proposal keeps the fuller name.
    expect(graph[0].name).toBe(first.length >= second.length ? first : second)
  })

  test.each<[string, string, string]>([
    ['different people', 'Jun', 'Ana'],
    ['same first name, other family names', 'Dana Whitfield', 'Dana Park'],
    ['other CJK names', '陳小美', '林志明'],
  ])('%s: two cards', (_label, first, second) => {
    expect(mergePeople(mergePeople([], [person(first, ['CLOSE_FRIEND'], 3)]), [person(second, ['COLLEAGUE'], 2)])).toHaveLength(2)
  })

  test('a short name that could be either of two cards is a card of its own', () => {
    const graph = mergePeople([], [person('Dana Whitfield', ['CLOSE_FRIEND'], 3), person('Dana Park', ['COLLEAGUE'], 3)])
    expect(names(mergePeople(graph, [person('Dana', ['SIBLINGS'], 2)]))).toEqual(['Dana', 'Dana Park', 'Dana Whitfield'])
  })

  test('within one import, the LINE and WhatsApp forms of a name are one card', () => {
    expect(names(mergePeople([], [person('Dana', ['CLOSE_FRIEND'], 3), person('Dana Whitfield', ['CLOSE_FRIEND'], 4), person('Jun', ['COLLEAGUE'], 2)]))).toEqual([
      'Dana Whitfield',
      'Jun',
    ])
  })

  test('a confirmed card keeps name, types and closeness; only the counts of what the chats show are refreshed', () => {
    const confirmed: GraphPerson = { ...person('Dana', ['SIBLINGS'], 5, 4, '2023-01-01T00:00:00'), confirmed: true }
    const [card] = mergePeople([confirmed], [person('Dana Whitfield', ['COLLEAGUE'], 1, 40, '2024-06-01T09:00:00')])
    expect(card).toEqual({ ...confirmed, messageCount: 40, userMessageCount: 40, lastMessageAt: '2024-06-01T09:00:00' })
  })

  test('counts are not doubled when the same chat is imported again', () => {
    const once = mergePeople([], [person('Jun', ['CLOSE_FRIEND'], 3, 25)])
    expect(mergePeople(once, [person('Jun', ['CLOSE_FRIEND'], 3, 25)])[0].messageCount).toBe(25)
  })
})

/** Imports a person might make, in any order, each seeing some of the same people under other names. */
const IMPORTS: Record<string, ProposedRelation[]> = {
  line: [person('Dana', ['CLOSE_FRIEND'], 3), person('Jun', ['COLLEAGUE'], 2)],
  whatsapp: [person('Dana Whitfield', ['CLOSE_FRIEND'], 4), person('Ana Souza', ['SIBLINGS'], 4)],
  group: [person('jun', ['COLLEAGUE'], 1), person('Ana', ['SIBLINGS'], 3), person('Leo', ['CLASSMATE'], 2)],
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items]
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]))
}

/** Confirming as the editor does: every card kept is confirmed; one is edited, one removed. */
function confirm(graph: GraphPerson[]): GraphPerson[] {
  return graph
    .filter((p) => !p.name.startsWith('Leo'))
    .map((p, i) => ({ ...p, confirmed: true, ...(i === 0 ? { types: ['MENTOR_ADVISOR'], closeness: 5 } : {}) }))
}

// Every order of the three imports, with the person confirming after none, or after any one of them.
const orders = permutations(Object.keys(IMPORTS)).flatMap((order) =>
  [-1, 0, 1, 2].map((confirmAfter) => [`${order.join(' → ')}${confirmAfter >= 0 ? `, confirmed after ${order[confirmAfter]}` : ''}`, order, confirmAfter] as const),
)

describe('every order of imports and confirmations', () => {
  test.each(orders)('%s', (_label, order, confirmAfter) => {
    let graph: GraphPerson[] = []
    let decided: GraphPerson[] = []
    let removed: string[] = []
    order.forEach((name, step) => {
      const before = graph
      graph = mergePeople(graph, IMPORTS[name])
      // Nobody already in the graph is dropped by an import.
      expect(graph.length).toBeGreaterThanOrEqual(before.length)
      for (const p of before) expect(graph.some((q) => q.name === p.name || q.name.startsWith(p.name))).toBe(true)
      if (step === confirmAfter) {
        const kept = confirm(graph)
        removed = graph.filter((p) => !kept.includes(p) && !kept.some((k) => k.name === p.name)).map((p) => p.name)
        graph = kept
        decided = kept.map((p) => ({ ...p }))
      }
      // What was confirmed stays exactly as the person left it (counts aside).
      for (const d of decided) {
        const card = graph.find((p) => p.name === d.name)
        expect(card, d.name).toMatchObject({ name: d.name, types: d.types, closeness: d.closeness, confirmed: true })
      }
    })
    // One card per person, whatever names the apps gave them.
    const cards = (first: string) => graph.filter((p) => p.name.toLowerCase().startsWith(first.toLowerCase()))
    expect(cards('Dana')).toHaveLength(1)
    expect(cards('Jun')).toHaveLength(1)
    expect(cards('Ana')).toHaveLength(1)
    // Everyone found is there, except a person removed at confirmation whom no later import found again.
    const leoFoundLater = confirmAfter >= 0 && order.indexOf('group') > confirmAfter
    expect(cards('Leo')).toHaveLength(removed.includes('Leo') && !leoFoundLater ? 0 : 1)
    // Proposals never confirmed are still offered: no confirmed flag where the person never confirmed.
    if (confirmAfter < 0) expect(graph.every((p) => !p.confirmed)).toBe(true)
  })
})
