/** The Columbia Suicide Severity Rating Scale's ideation and behaviour categories, plus method seeking. */
export const CATEGORIES = [
  'passive_wish',
  'burden',
  'active_thoughts',
  'method',
  'intent_timing',
  'plan',
  'preparatory',
  'self_harm',
  'method_seeking',
  'hopelessness',
] as const
export type Category = (typeof CATEGORIES)[number]

export interface Rule {
  category: Category
  /** `crisis`: enough alone. `risk`: uncertain alone; a second risk of another category, or a time word, makes it a crisis. */
  strength: 'crisis' | 'risk'
  pattern: RegExp
  /** Talks about the subject rather than the person's own intent: reading, fiction, the news and grief cancel it. */
  topic?: boolean
  /** The rule does not count when this matches anywhere in the message (camping rope, barbecue charcoal). */
  unless?: RegExp
}

export interface RuleSet {
  /** Spans removed before matching: denials and figures of speech. */
  ignore: RegExp[]
  /** Study, fiction, news or someone else's death. */
  topicMarkers: RegExp[]
  /** Laughing along ("lol", "哈哈"): turns lone wishes and thoughts from crisis into uncertain. */
  laughter: RegExp
  /** Saying outright it was a joke ("jk", "開玩笑的啦"): softens even a message with a time in it. */
  joking: RegExp
  /** Saying it is meant ("like properly", "not joking", 說真的): laughter anywhere in the message softens nothing. */
  serious: RegExp
  /** "tonight", "今晚": turns a risk into a crisis. */
  time: RegExp
  /** Taking back a denial or a joke ("I told her no. I lied.", "我說沒有，騙她的"): nothing is set aside. */
  retraction: RegExp
  /** A recovery told from the far side: a time that is over, something well now, and no sign it is back. */
  recovery: {
    past: RegExp
    wellNow: RegExp
    back: RegExp
    /** A time that is over ("years ago", "以前"), where a story told from the far side begins (farSide.ts). */
    then: RegExp
    /** The turn back to now ("these days", "現在", "十二年過去了"), where it ends. */
    since: RegExp
    /** Days that are not over ("last night", "昨天", "剛剛"): a story holding one is not told from the far side. */
    lately: RegExp
  }
  rules: Rule[]
}

export type RiskLevel = 'none' | 'uncertain' | 'crisis'

export interface Assessment {
  level: RiskLevel
  categories: Category[]
  /** The rules found a crisis but the person said it laughing or as a joke: nothing may raise it again. */
  joking?: boolean
  /** A denial, figure of speech or recovery was read and set aside ("我不想死", "this exam is killing me"). */
  setAside?: boolean
}
