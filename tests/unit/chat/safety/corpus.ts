// The labelled crisis corpus and its scoring, shared by the unit test and bench/safety.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { assessMessage } from '../../../../api/chat/safety/detect'

export interface LabelledMessage {
  text: string
  lang: 'en' | 'zh-TW' | 'zh-CN'
  label: 'crisis' | 'ordinary'
  category: string
}

// Each set was written apart from the rules; the letters are the order they arrived in (bench/README.md gives each
// set's figures as first measured, before anything was learned from it).
export const CORPUS_FILES = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').map((set) => `corpus${set}.json`),
  // Recovery stories and denials beside the risk come back after them: the hardest boundary, written on its own.
  'corpusRecovery.json',
  'corpusAA.json',
  'corpusRecovery2.json',
  'corpusAB.json',
  'corpusAC.json',
  'corpusAD.json',
  'corpusRecovery4.json',
  'corpusAE.json',
  'corpusAF.json',
  'corpusAG.json',
  'corpusAH.json',
  'corpusAI.json',
  'corpusAJ.json',
  'corpusAK.json',
  'corpusRecovery5.json',
  'corpusAL.json',
  'corpusAM.json',
  'corpusAN.json',
  'corpusAO.json',
  'corpusRecovery6.json',
  'corpusAP.json',
  'corpusAQ.json',
]
/** Plain companion chat (greetings, plans, small worries): the ordinary messages most people send. */
export const EVERYDAY_FILES = ['everydayChat.json', 'everydayLong.json', 'everydayMore.json', 'everydayMore2.json', 'everydayMore3.json', 'everydayMore4.json']

export function loadCorpus(files = CORPUS_FILES): LabelledMessage[] {
  return files.flatMap((file) => JSON.parse(readFileSync(join(import.meta.dirname, file), 'utf8')) as LabelledMessage[])
}

export interface Score {
  crisis: number
  ordinary: number
  recall: number
  falseAlarmRate: number
  misses: string[]
  falseAlarms: string[]
}

/** Recall counts only a crisis level (help first); an uncertain result with no model gets no help, so it is a miss. */
export function scoreCorpus(messages: LabelledMessage[]): Score {
  const misses: string[] = []
  const falseAlarms: string[] = []
  let crisis = 0
  let ordinary = 0
  for (const message of messages) {
    const flagged = assessMessage(message.text).level === 'crisis'
    if (message.label === 'crisis') {
      crisis++
      if (!flagged) misses.push(`${message.category}: ${message.text}`)
    } else {
      ordinary++
      if (flagged) falseAlarms.push(`${message.category}: ${message.text}`)
    }
  }
  return {
    crisis,
    ordinary,
    recall: crisis ? 1 - misses.length / crisis : 1,
    falseAlarmRate: ordinary ? falseAlarms.length / ordinary : 0,
    misses,
    falseAlarms,
  }
}
