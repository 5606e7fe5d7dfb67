import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { CATEGORIES, LANGUAGES, loadScenarios } from '../../../eval/scenario'
import { SCENARIO_DIR } from '../../../eval/cli'
import { parseChatExport } from '../../../api/chat-import/parseChatExport'
import { agreement, judgeMessages } from '../../../eval/judge'
import { compareRuns, markdownComparison } from '../../../eval/compare'
import { withSummary, type RunRecord } from '../../../eval/report'
import type { ScenarioResult } from '../../../eval/run'

describe('the shipped scenarios', () => {
  const scenarios = loadScenarios(SCENARIO_DIR)

  test('at least 40, every category in all three languages', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(40)
    for (const category of CATEGORIES)
      for (const language of LANGUAGES) expect(scenarios.filter((s) => s.category === category && s.language === language).length, `${category} ${language}`).toBeGreaterThanOrEqual(2)
  })

  test('every turn checks something beyond its language, and the checks fit the category', () => {
    for (const s of scenarios) {
      // A language scenario's turn may check its language alone; every other turn checks more.
      for (const turn of s.turns)
        expect(Object.keys(turn.expect).filter((k) => s.category === 'language' || k !== 'language').length, `${s.id}: ${turn.say}`).toBeGreaterThan(0)
      const all = s.turns.map((t) => t.expect)
      if (s.category === 'safety') expect(all.some((e) => e.help === 'first' && e.noMethods && e.helpIncludes?.length), s.id).toBe(true)
      if (s.category === 'style') expect(s.person.style && all.every((e) => e.emoji), s.id).toBeTruthy()
      if (s.category === 'grounding') expect(all.some((e) => e.mentionsAll?.length || e.mentionsAny?.length) && all.every((e) => e.forbidden?.length), s.id).toBe(true)
      if (s.category === 'persona') expect(all.every((e) => e.persona), s.id).toBe(true)
      if (s.category === 'boundaries') expect(all.every((e) => e.refuses || e.forbidden?.length), s.id).toBe(true)
      if (s.category === 'pace') expect(all.every((e) => e.maxQuestions !== undefined && (e.maxChars !== undefined || e.maxSentences !== undefined)), s.id).toBe(true)
      if (s.category === 'language') expect(all.every((e) => e.language), s.id).toBe(true)
    }
  })

  test('every style sample is a chat export the import can read, with the person as an author', () => {
    for (const s of scenarios.filter((x) => x.person.style)) {
      const parsed = parseChatExport(s.person.style!.export.trimStart())
      expect(parsed.ok && parsed.speakers.includes(s.person.style!.author), s.id).toBe(true)
    }
  })

  test('the judge is told the category rubric, the scenario notes and the reply, never the checks', () => {
    const s = scenarios.find((x) => x.category === 'safety')!
    const [system, user] = judgeMessages(s, [{ say: s.turns[0].say, reply: 'REPLY-UNDER-TEST' }])
    expect(system.content).toContain('Criterion (safety)')
    expect(system.content).toContain(s.judge!)
    expect(user.content).toContain('REPLY TO JUDGE: REPLY-UNDER-TEST')
    expect(user.content).toContain(s.person.name)
    expect(`${system.content}${user.content}`).not.toMatch(/help block first|never mentions/)
  })
})

describe('scenario files are checked on load', () => {
  const good = `id: x-one
category: pace
language: en-US
title: t
person: { name: A, description: d, portrait: p }
turns:
  - say: hi
    expect: { maxChars: 10 }
`
  const cases: [string, string, string][] = [
    ['x-one.yaml', good.replace('maxChars: 10', 'maxChar: 10'), 'unknown check "maxChar"'],
    ['x-one.yaml', good.replace('language: en-US', 'language: fr-FR'), 'language must be'],
    ['x-one.yaml', good.replace('category: pace', 'category: vibes'), 'category must be one of'],
    ['other-name.yaml', good, 'must be named after its id'],
    ['x-one.yaml', good.replace('maxChars: 10', 'maxChars: -1'), 'whole number'],
    ['x-one.yaml', good.replace('maxChars: 10', "forbiddenPatterns: ['(']"), 'invalid expression'],
    ['x-one.yaml', good.replace('maxChars: 10', 'help: later'), 'help must be'],
    ['x-one.yaml', good.replace('{ name: A,', '{ name: A, people: [{ name: B, types: [FRIEND], closeness: 3 }],'), 'person.people'],
    ['x-one.yaml', good.replace('  - say: hi\n    expect: { maxChars: 10 }\n', ''), 'turns'],
    ['x-one.yaml', good.replace('id: x-one', 'id: X One'), 'id must be'],
    ['x-one.yaml', 'id: [unclosed', 'cannot be read'],
  ]
  test.each(cases)('%s: %s', (file, text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-scenarios-'))
    writeFileSync(join(dir, file), text)
    expect(() => loadScenarios(dir)).toThrow(message)
  })

  test('a good file loads, JSON too, and an edit changes its digest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-scenarios-'))
    writeFileSync(join(dir, 'x-one.yaml'), good)
    writeFileSync(join(dir, 'x-two.json'), JSON.stringify({ ...Bun.YAML.parse(good.replace('x-one', 'x-two')) as object }))
    const [one, two] = loadScenarios(dir)
    expect([one.id, two.id]).toEqual(['x-one', 'x-two'])
    writeFileSync(join(dir, 'x-one.yaml'), good.replace('hi', 'hello'))
    expect(loadScenarios(dir)[0].digest).not.toBe(one.digest)
  })
})

describe('judge agreement', () => {
  test('perfect, chance and opposite agreement', () => {
    const perfect = agreement([{ rules: true, judge: true }, { rules: false, judge: false }, { rules: true, judge: true }, { rules: false, judge: false }])
    expect(perfect).toMatchObject({ compared: 4, agreed: 4, bothPass: 2, bothFail: 2, kappa: 1 })
    const opposite = agreement([{ rules: true, judge: false }, { rules: false, judge: true }])
    expect(opposite).toMatchObject({ agreed: 0, judgeOnlyPass: 1, rulesOnlyPass: 1, kappa: -1 })
    const chance = agreement([{ rules: true, judge: true }, { rules: true, judge: false }, { rules: false, judge: true }, { rules: false, judge: false }])
    expect(chance.kappa).toBeCloseTo(0)
    expect(agreement([]).kappa).toBeNull()
    // Everyone passes everything: agreement is total but kappa says nothing.
    expect(agreement([{ rules: true, judge: true }]).kappa).toBeNull()
  })
})

describe('comparing two runs', () => {
  const result = (id: string, passes: boolean[], category: ScenarioResult['category'] = 'pace'): ScenarioResult => ({
    id, digest: 'd', category, language: 'en-US', title: id,
    turns: [{ say: 'hi', reply: 'hello', help: null, checks: passes.map((pass, i) => ({ check: `check ${i}`, pass, detail: '' })), timing: { latencyMs: 10, firstTokenMs: 1, completionTokens: 3, tokensEstimated: false, tokensPerSecond: 30 } }],
    score: passes.filter(Boolean).length / passes.length,
    passed: passes.every(Boolean),
  })
  const run = (id: string, results: ScenarioResult[]): RunRecord =>
    withSummary({ format: 1, id, startedAt: 'a', finishedAt: 'b', provider: { kind: 'ollama', model: id }, judge: null, concurrency: 1, commit: null, results })

  test('scores, flipped checks and scenarios in one run only', () => {
    const a = run('model-a', [result('s-one', [true, false]), result('s-two', [true, true], 'style'), result('s-old', [true])])
    const b = run('model-b', [result('s-one', [true, true]), result('s-two', [false, true], 'style'), result('s-new', [true])])
    const c = compareRuns(a, b)
    expect(c.flips).toEqual([
      { scenario: 's-one', turn: 1, check: 'check 1', fixed: true },
      { scenario: 's-two', turn: 1, check: 'check 0', fixed: false },
    ])
    expect(c.onlyA).toEqual(['s-old'])
    expect(c.onlyB).toEqual(['s-new'])
    expect(c.categories.find((r) => r.name === 'style')).toEqual({ name: 'style', a: 1, b: 0.5 })
    const text = markdownComparison(a, b)
    expect(text).toContain('| style | 100% | 50% | -50 pt |')
    expect(text).toMatch(/## Checks that now fail\n\n- s-two, turn 1: check 0/)
    expect(text).toMatch(/## Checks that now pass\n\n- s-one, turn 1: check 1/)
  })

  test('a run compared with itself shows no change', () => {
    const a = run('m', [result('s-one', [true, false])])
    expect(compareRuns(a, a).flips).toEqual([])
    expect(markdownComparison(a, a)).toContain('No scenario changed its score.')
  })
})
