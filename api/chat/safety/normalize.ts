// Texts are matched in one canonical spelling per script so the rules stay readable: English lower-cased with
// apostrophes dropped ("don't" → "dont") and chat shorthand spelled out; Chinese in Traditional characters with
// spaces and punctuation variants removed. The rules are written against these forms only.
import * as OpenCC from 'opencc-js'

// Simplified → Traditional (Taiwan) by OpenCC; Traditional text passes through unchanged. Variant forms the
// conversion leaves apart are folded together so one spelling in a rule covers both.
const toTraditional = OpenCC.Converter({ from: 'cn', to: 'tw' })
const VARIANTS: Record<string, string> = { 臺: '台', 裏: '裡', 着: '著', 碳: '炭', 妳: '你', 祢: '你', 牠: '他', 麽: '麼', 爲: '為', 衆: '眾' }

// Written Cantonese folded into Mandarin words, so "唔想活" and "跳落去" meet the same rules as 不想活 and 跳下去.
const CANTONESE: [RegExp, string][] = [
  [/(?<![世境業眼外邊各學新租分交臨跨政商藝軍影樂法醫視網])[鎅界](?=手|腕|自己|傷|咗|了|到|多|深|條|開|損)/g, '割'],
  [/食(?=光|晒|藥|咗|埋|多|曬|飯|嘢)/g, '吃'],
  [/一次過/g, '一次'],
  [/而家/g, '現在'],
  [/好咗/g, '好了'],
  [/咩/g, '什麼'],
  [/莫(?=醒|要|得)/g, '不'],
  [/([送賣丟扔食吃用花])晒/g, '$1光'],
  [/[俾畀]/g, '給'],
  [/(我|你|佢|他|她)話(?=想|要|唔|不|我|佢)/g, '$1說'],
  [/儲(?=了|咗|緊|埋|起|夠|好多|很多|晒)/g, '存'],
  [/收埋/g, '藏'],
  [/櫃桶/g, '抽屜'],
  [/(\d|好多|幾|成|一)粒/g, '$1顆'],
  [/嘢/g, '東西'],
  [/自鯊|紫砂|自鲨/g, '自殺'],
  [/想鼠/g, '想死'],
  [/毋想/g, '不想'],
  [/閣活/g, '再活'],
  [/唔係/g, '不是'],
  [/唔好/g, '不要'],
  [/唔使/g, '不用'],
  [/揀/g, '選'],
  [/好似/g, '好像'],
  [/淤青/g, '瘀青'],
  [/瞓/g, '睡'],
  [/住我/g, '我'],
  [/喺度/g, '在這裡'],
  [/唔/g, '不'],
  [/冇/g, '沒有'],
  [/咗/g, '了'],
  [/喺/g, '在'],
  [/佢哋/g, '他們'],
  [/佢/g, '他'],
  [/諗/g, '想'],
  [/係/g, '是'],
  [/嘅/g, '的'],
  [/啲/g, '些'],
  [/聽日/g, '明天'],
  [/屋企/g, '家裡'],
  [/企/g, '站'],
  [/攰/g, '累'],
  [/𠝹/g, '割'],
  [/落去/g, '下去'],
  [/幾多/g, '多少'],
  [/點樣/g, '怎樣'],
  [/乜嘢/g, '什麼'],
  [/咁/g, '這麼'],
  [/喇|囉|啦|嘞/g, '了'],
]

/** Chinese text in the form the rules are written in: Traditional, no spaces, plain punctuation. */
export function normalizeChinese(text: string): string {
  const flat = withoutInvisibles(text.normalize('NFKC')).replace(/\s+/g, '')
  let out = toTraditional(flat)
  for (const [pattern, replacement] of CANTONESE) out = out.replace(pattern, replacement)
  return out
    .replace(/[臺裏着碳妳祢牠麽爲衆]/g, (char) => VARIANTS[char])
    .replace(/[，、；]/g, ',')
    .replace(/[。！？!?]+/g, '。')
    .toLowerCase()
    // Pinyin and Zhuyin typed to get past filters or to soften the word: 想zs, 想zisha, 自ㄕㄚ, 想ㄙ, 不想活ㄌ.
    .replace(/(想|要|去|打算|準備|想要|考慮)zs(?![a-z])/g, '$1自殺')
    .replace(/zi ?sha(?![a-z])|自ㄕㄚ/g, '自殺')
    .replace(/qing ?sheng(?![a-z])/g, '輕生')
    .replace(/zc(?=又|了|犯|的|復發)/g, '自殘')
    .replace(/(想|去|要|快|好想|不如|乾脆|一)ㄙ/g, '$1死')
    .replace(/ㄌ(?=$|[。,~!?])/g, '了')
}

/** Zero-width and other format characters (U+200B, U+200D, soft hyphens, BOMs) typed or pasted inside words. */
function withoutInvisibles(text: string): string {
  return text.replace(/\p{Cf}/gu, '')
}

// Cyrillic and Greek letters that look like Latin ones ("ѕuicide"): read as the Latin letter they pass for.
const LOOKALIKES: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j', к: 'k', м: 'm', т: 't', ԁ: 'd', һ: 'h', ӏ: 'l',
  α: 'a', ο: 'o', ι: 'i', κ: 'k', ε: 'e', ν: 'v', τ: 't', υ: 'u', ρ: 'p',
}
const LOOKALIKE = new RegExp(`[${Object.keys(LOOKALIKES).join('')}]`, 'g')

// Words spelled out letter by letter ("s u i c i d e", "k.i.l.l"), joined again when they make one of these.
const SPELLED_OUT = /\b(?:[a-z][ .\-_*]){2,}[a-z]\b/g
const SPELLED_WORDS = /^(?:suicide|suicidal|kill|die|dead|death|cut|cutting|selfharm|overdose|hang|myself|unalive|kms|ctb|end)$/

// Chat shorthand spelled out, applied on word boundaries after apostrophes are gone.
const SHORTHAND: [RegExp, string | ((match: string) => string)][] = [
  [/\b(?:my self)\b/g, 'myself'],
  [/\bkil\b(?= (?:myself|my self|me|urself))/g, 'kill'],
  [/\b(?:sucide|suicde|suiside|suicid|suecide|sucicide|suiced)\b/g, 'suicide'],
  [/\b(?:sucidal|suicidial|suisidal|sucicidal|suicdal)\b/g, 'suicidal'],
  [/\b(want|wanna|going|gonna|need|trying|about|ready|planning|plan|have|got|deserve|wish) 2\b/g, '$1 to'],
  // Contractions whose apostrophe is gone: "they'd get over it" → "theyd" → "they would".
  [/\b(they|you|everyone|everybody|nobody|people|it)d\b/g, '$1 would'],
  [/\b(they|you|everyone|everybody|nobody|people)ll\b/g, '$1 will'],
  [/\bnothin\b/g, 'nothing'],
  [/\bthe plans (?=simple|easy|set|done|ready|this|to)/g, 'the plan is '],
  [/\burself\b/g, 'yourself'],
  [/\bdiss?app?ear(s|ed|ing)?\b/g, 'disappear$1'],
  [/\bwanna\b/g, 'want to'],
  [/\bgonna\b/g, 'going to'],
  [/\bgotta\b/g, 'got to'],
  [/\btryna\b/g, 'trying to'],
  [/\bwant2\b/g, 'want to'],
  [/\bu\b/g, 'you'],
  [/\bur\b/g, 'your'],
  [/\bppl\b/g, 'people'],
  [/\brn\b/g, 'right now'],
  [/\btn\b/g, 'tonight'],
  [/\b(tonite|2nite|2night)\b/g, 'tonight'],
  [/\b(2morrow|tmrw|tmr|tmrow)\b/g, 'tomorrow'],
  [/\bcuz\b|\bcos\b|\bbc\b/g, 'because'],
  [/\bbcuz\b/g, 'because'],
  [/\bsth\b/g, 'something'],
  [/\bplz\b|\bpls\b/g, 'please'],
  [/\bany ?more\b/g, 'anymore'],
  [/\bi ?m\b/g, 'im'],
  [/\bi am\b/g, 'im'],
  [/\bi have\b/g, 'ive'],
  [/\bi would\b/g, 'id'],
  [/\bi will\b/g, 'ill'],
  [/\bdo not\b/g, 'dont'],
  [/\bdoes not\b/g, 'doesnt'],
  [/\bdid not\b/g, 'didnt'],
  [/\bcan ?not\b/g, 'cant'],
  [/\bwill not\b/g, 'wont'],
  [/\bwould not\b/g, 'wouldnt'],
  [/\bis not\b/g, 'isnt'],
  [/\bam not\b/g, 'not'],
  [/\bhave not\b/g, 'havent'],
  [/\bit is\b/g, 'its'],
  [/\bthat is\b/g, 'thats'],
  [/\bthere is\b/g, 'theres'],
  [/\bwhat is\b/g, 'whats'],
  // Euphemisms and shorthand for suicide and self-harm used online.
  [/\bk ?m ?s\b/g, 'kill myself'],
  [/\bkmys\b/g, 'kill myself'],
  // Something that "unalived me" (a plot twist, a joke) is a figure of speech, not a thing done to oneself.
  [/\bun-?alived me\b/g, 'killed me'],
  [/\bun-?alive (myself|me)\b/g, 'kill myself'],
  [/\bun-?aliving (myself|me)\b/g, 'killing myself'],
  [/\bun-?alive\b/g, 'kill myself'],
  [/\bun-?alived\b/g, 'killed myself'],
  [/\boff(ing)? myself\b/g, 'kill$1 myself'],
  [/\bend(ing)? myself\b/g, 'kill$1 myself'],
  [/\bc ?t ?b\b/g, 'kill myself'],
  [/\bcatch(ing)? the bus\b(?= (tonight|soon|today|tomorrow|this|now|early|finally))/g, 'kill$1 myself'],
  [/\bsewer ?slide\b/g, 'suicide'],
  [/\bs[\W_]?[u*][\W_]?[i1*!][\W_]?[c*][\W_]?[i1*!][\W_]?[d*][\W_]?[e3*]\b/g, 'suicide'],
  [/\bsu[i1]c[i1]dal\b/g, 'suicidal'],
  [/\bself[- ]?h[a*]rm(ing|ed)?\b/g, 'selfharm'],
  [/\bs\/h\b/g, 'selfharm'],
  [/\b(want to|urge to|urges to|going to|need to|about to|tempted to|itch to|trying not to) sh\b/g, '$1 selfharm'],
  [/\bshd\b/g, 'selfharmed'],
  [/\bsh (?=relapse|again|urges?|free|clean|scars?|cuts?|marks?)/g, 'selfharm '],
  [/\bo\.?d\b(?!\w)/g, 'overdose'],
  [/\bod(ing|ed|d)\b/g, 'overdos$1'],
  [/\bd[i1]e+\b/g, 'die'],
  [/\b(?:tird|tierd|tiered of)\b/g, (m: string) => (m.startsWith('tiered') ? 'tired of' : 'tired')],
  [/\bwud\b/g, 'would'],
  [/\btil\b/g, 'till'],
  [/\bcud\b/g, 'could'],
  [/\bsumtimes\b/g, 'sometimes'],
]

/** English text in the form the rules are written in. */
export function normalizeEnglish(text: string): string {
  let out = withoutInvisibles(text.normalize('NFKC'))
    .toLowerCase()
    .replace(LOOKALIKE, (char) => LOOKALIKES[char])
    .replace(SPELLED_OUT, (run) => {
      const word = run.replace(/[ .\-_*]/g, '')
      return SPELLED_WORDS.test(word) ? word : run
    })
    .replace(/[\u2018\u2019\u02bc\u2032`´']/g, '')
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, ' - ')
    .replace(/(\p{L})\1{2,}/gu, '$1$1')
    .replace(/\s+/g, ' ')
  for (const [pattern, replacement] of SHORTHAND) out = out.replace(pattern, replacement as string)
  return ` ${out.trim()} `
}

/** A message in both canonical forms, made once and shared by the rules, the lexical layer and its length. */
export interface Reading {
  en: string
  zh: string
}

export function readingOf(text: string): Reading {
  return { en: normalizeEnglish(text), zh: normalizeChinese(text) }
}
