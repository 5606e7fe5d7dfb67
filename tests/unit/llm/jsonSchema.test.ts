import { expect, test } from 'vitest'
import { parseJsonReply, sampleFromSchema, schemaMismatch, withJsonInstruction } from '../../../api/llm/jsonSchema'
import { ModelFailure } from '../../../api/llm/provider'

const schema = {
  type: 'object',
  $defs: { person: { type: 'object', properties: { name: { type: 'string' }, closeness: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['name'] } },
  properties: {
    title: { type: 'string', maxLength: 5 },
    mood: { enum: ['calm', 'tense'] },
    score: { type: 'number', minimum: 2 },
    done: { type: 'boolean' },
    note: { type: ['string', 'null'] },
    people: { type: 'array', items: { $ref: '#/$defs/person' }, minItems: 1 },
    kind: { const: 'plan' },
    either: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
  },
  required: ['title', 'mood', 'score', 'done', 'people', 'kind'],
}

test('a sample fits its schema and takes its strings from the path', () => {
  const sample = sampleFromSchema(schema, (path) => path.join('.'))
  expect(sample).toEqual({
    title: 'title',
    mood: 'calm',
    score: 2,
    done: false,
    note: 'note',
    people: [{ name: 'people.0.name', closeness: 1 }],
    kind: 'plan',
    either: 0,
  })
  expect(schemaMismatch(sample, schema)).toBeNull()
})

test('mismatches name the first offending path', () => {
  const good = { title: 't', mood: 'calm', score: 3.5, done: true, note: null, people: [{ name: 'Mei' }], kind: 'plan', either: 'x' }
  expect(schemaMismatch(good, schema)).toBeNull()
  expect(schemaMismatch({ ...good, mood: 'angry' }, schema)).toContain('$.mood')
  expect(schemaMismatch({ ...good, people: [{ closeness: 2 }] }, schema)).toBe('$.people[0]: missing "name"')
  expect(schemaMismatch({ ...good, people: [{ name: 'Mei', closeness: 2.5 }] }, schema)).toContain('$.people[0].closeness: expected integer')
  expect(schemaMismatch({ ...good, either: true }, schema)).toContain('$.either')
  expect(schemaMismatch([], schema)).toBe('$: expected object, got array')
})

test('parseJsonReply accepts a fenced answer and rejects prose or a misfit with ModelFailure', () => {
  const simple = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }
  expect(parseJsonReply('```json\n{"a":1}\n```', simple)).toEqual({ a: 1 })
  expect(() => parseJsonReply('The answer is 1', simple)).toThrow(ModelFailure)
  expect(() => parseJsonReply('{"a":"1"}', simple)).toThrow(/\$\.a: expected number/)
})

test('the schema instruction joins the leading system message or becomes one', () => {
  const s = { type: 'object' }
  expect(withJsonInstruction([{ role: 'user', content: 'q' }], s).map((m) => m.role)).toEqual(['system', 'user'])
  const merged = withJsonInstruction([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'q' }], s)
  expect(merged).toHaveLength(2)
  expect(merged[0].content).toMatch(/^Be brief\.\n\n.*\{"type":"object"\}$/s)
})
