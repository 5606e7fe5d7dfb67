import { describe, expect, test } from 'vitest'
import { checkEdit, type GraphEdit } from '../../../api/relations/editGraph'
import type { RelationGraph } from '../../../api/relations/graph'

const graph: RelationGraph = {
  nodes: [
    { id: 'me', properties: { name: 'Mei', isSelf: true } },
    { id: 'a', properties: { name: 'Jun', isSelf: false } },
    { id: 'b', properties: { name: '媽媽', isSelf: false } },
  ],
  relationships: [
    { id: 'r1', source: 'me', target: 'a', types: ['CLOSE_FRIEND'], properties: { closeness: 3, confirmed: false } },
    { id: 'r2', source: 'me', target: 'b', types: ['PARENTS'], properties: { closeness: 4, confirmed: false } },
  ],
}

const rel = (target: string, types: string[], closeness: number, extra: object = {}) => ({
  source: 'me', target, types, properties: { closeness }, ...extra,
})
const refused = (edit: GraphEdit) => {
  try {
    checkEdit(graph, edit)
  } catch (error: any) {
    return `${error.statusCode} ${error.message}`
  }
  return 'accepted'
}

describe('checking an edit of the graph', () => {
  test('keeps what is sent; a person left out is removed; either direction is accepted', () => {
    expect(checkEdit(graph, { relationships: [rel('a', ['COLLEAGUE', 'CLOSE_FRIEND'], 5)] })).toEqual([
      { personId: 'a', types: ['COLLEAGUE', 'CLOSE_FRIEND'], closeness: 5 },
    ])
    expect(checkEdit(graph, { relationships: [{ source: 'b', target: 'me', types: ['PARENTS'], properties: { closeness: 2 } }] })).toEqual([
      { personId: 'b', types: ['PARENTS'], closeness: 2 },
    ])
  })

  test('refuses unknown ids, types and closeness values', () => {
    expect(refused({ relationships: [rel('zzz', ['PARENTS'], 3)] })).toBe('400 Unknown node id zzz')
    expect(refused({ nodes: [{ id: 'nope' }], relationships: [rel('a', ['PARENTS'], 3)] })).toBe('400 Unknown node id nope')
    expect(refused({ relationships: [rel('a', ['PARENTS'], 3, { id: 'r9' })] })).toBe('400 Unknown relationship id r9')
    expect(refused({ relationships: [rel('a', ['BEST_BUDDY'], 3)] })).toBe('400 Unknown relationship type BEST_BUDDY')
    expect(refused({ relationships: [rel('a', [], 3)] })).toBe('400 Jun needs at least one relationship type')
    expect(refused({ relationships: [rel('a', ['SIBLINGS', 'SIBLINGS'], 3)] })).toBe('400 Jun has the type SIBLINGS twice')
    for (const closeness of [0, 6, 2.5, -1])
      expect(refused({ relationships: [rel('a', ['SIBLINGS'], closeness)] })).toBe('400 closeness must be a whole number from 1 to 5 (Jun)')
    expect(refused({ relationships: [] })).toBe('400 There must be at least one relation')
  })

  test('refuses a relationship between two people, to oneself, twice for one person, or to a node left out', () => {
    expect(refused({ relationships: [{ source: 'a', target: 'b', types: ['COUSINS'], properties: { closeness: 3 } }] })).toBe(
      '400 Each relationship must connect you with one person',
    )
    expect(refused({ relationships: [rel('me', ['COUSINS'], 3)] })).toBe('400 Each relationship must connect you with one person')
    expect(refused({ relationships: [rel('a', ['COUSINS'], 3), rel('a', ['SIBLINGS'], 2)] })).toBe('400 Jun has more than one relationship')
    expect(refused({ nodes: [{ id: 'me' }, { id: 'b' }], relationships: [rel('a', ['COUSINS'], 3)] })).toBe(
      '400 Jun has a relationship but is missing from nodes',
    )
  })
})
