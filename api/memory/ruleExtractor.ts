// Memories without a model: clear first-person statements in English, Traditional and Simplified Chinese — names,
// the people in the person's life, plans with a time, likes and dislikes, where they live and work, things that
// just happened. It keeps the sentence as the person said it. Questions, wishes about hypotheticals and talk about
// other people's likes are left alone: a wrong memory is worse than a missed one.
import type { MemoryKind } from './memories'

export interface ExtractedMemory {
  kind: MemoryKind
  text: string
  label: string
  personName: string | null
}

const REL_EN =
  'sister|brother|mom|mum|mother|dad|father|parents|wife|husband|partner|boyfriend|girlfriend|fiancée?|son|daughter|kids?|children|' +
  'friend|best friend|boss|manager|coworker|co-worker|colleague|roommate|flatmate|grandma|grandmother|grandpa|grandfather|aunt|uncle|' +
  'cousin|niece|nephew|teacher|mentor|therapist|coach|dog|cat|puppy|kitten'
const REL_ZH =
  '男朋友|女朋友|好朋友|好友|男友|女友|妹妹|姊姊|姐姐|哥哥|弟弟|媽媽|妈妈|爸爸|老公|老婆|先生|太太|閨蜜|闺蜜|同事|主管|老闆|老板|上司|' +
  '兒子|儿子|女兒|女儿|室友|奶奶|爺爺|爷爷|外婆|外公|阿姨|叔叔|舅舅|表姊|表姐|表妹|表哥|表弟|堂哥|堂姊|堂姐|堂妹|堂弟|同學|同学|' +
  '老師|老师|教練|教练|朋友|媽|妈|爸|狗|貓|猫'

/** Words that say when: a plan or an event needs one to count. */
const WHEN_EN =
  /\b(?:today|tonight|tomorrow|yesterday|next|this (?:week|weekend|month|year|summer|winter|spring|fall|autumn)|last (?:week|month|year|night)|in (?:a|two|three|\d+) (?:days?|weeks?|months?|years?)|(?:on |in |by )?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|soon|\d{4}|\d{1,2}\/\d{1,2})/i
const WHEN_ZH = /今天|今晚|明天|後天|后天|昨天|下週|下周|下星期|下個月|下个月|下禮拜|下礼拜|明年|今年|年底|月底|週末|周末|這週|这周|這個月|这个月|上週|上周|上個月|上个月|去年|[一二三四五六七八九十\d]+月|星期[一二三四五六日天]|禮拜[一二三四五六日天]|礼拜[一二三四五六日天]|最近|下學期|下学期|暑假|寒假/

const OBJECT_PRONOUN_EN = /^(?:(?:it|that|this|you|them|him|her|these|those)\b(?: \w+)?|so much|too|a lot|much)[\s.!,]*$/i
const OBJECT_PRONOUN_ZH = /^(?:你|妳|您|它|他|她|這個|这个|那個|那个|這樣|这样|那樣|那样|你們|你们)[\s。！!，,]*$/

const QUESTION = /[?？]\s*$|[嗎吗呢]\s*[。!！]?\s*$|^(?:do|does|did|can|could|would|should|will|is|are|am|what|why|how|when|where|who|which)\b/i
const HYPOTHETICAL = /\b(?:if|what if|imagine|suppose|wish|pretend)\b|如果|假如|要是|假設|假设|万一|萬一|希望我|但願|但愿/i
/** Said about someone else, unless the person's own relation is the subject. */
const OTHER_SUBJECT_EN = /^(?:he|she|they|we|you|it|his|her|their|our|your)\b/i
const OTHER_SUBJECT_ZH = /^(?:他|她|他們|他们|她們|她们|你|妳|您|我們|我们|大家|別人|别人)/

interface Rule {
  kind: MemoryKind | 'auto'
  pattern: RegExp
  /** The group (1-based) with the person's name, when the rule names one. */
  name?: number
  /** The group with the relation word. */
  relation?: number
  /** The group with what the memory is about (its label). */
  topic?: number
  /** Rejects a match whose topic is only a pronoun ("I love you", "我喜歡這個"). */
  needsObject?: boolean
  /** Plans and events of a vague verb count only with a time. */
  needsWhen?: boolean
}

const NAME_EN = "(\\p{Lu}[\\p{L}'’-]+(?: \\p{Lu}[\\p{L}'’-]+)?)"
const NAME_ZH = '([\\p{Script=Han}]{1,3}?|[A-Za-z][\\w-]+)'

const RULES: Rule[] = [
  // Their own name.
  { kind: 'fact', pattern: /\b(?:my name is|my name's|call me|i go by)\s+([\p{L}'’-]+)/iu, topic: 1 },
  { kind: 'fact', pattern: /(?:我叫|我的名字[是叫]|叫我)\s*([\p{Script=Han}]{1,4}|[A-Za-z][\w-]*)/u, topic: 1 },

  // The people in their life: "my sister Mei …", "my sister's name is Mei", "my boss, Tom, …", "我妹妹小美…", "我有一個妹妹叫小美".
  {
    kind: 'auto',
    pattern: new RegExp(`\\b[Mm]y (?:(?:older|younger|little|big|baby|twin|step|best|new|old|ex)[- ]?)?(${REL_EN})(?:'s name is|,| is called| is named| named| called)? ${NAME_EN}`, 'u'),
    relation: 1,
    name: 2,
  },
  {
    kind: 'auto',
    pattern: new RegExp(`我(?:的)?(?:有一?[個个位隻只])?(${REL_ZH})(?:的名字)?(?:叫做|叫|是)?((?:小|阿|老)[\\p{Script=Han}]|[A-Za-z][\\w-]+|(?<=叫做?)[\\p{Script=Han}]{2,3}?(?=[，,。！!、\\s]|$|[要會会在下明今已剛刚也很最就從从跟和今去來来開开想說说考上]))`, 'u'),
    relation: 1,
    name: 2,
  },

  // Likes and dislikes.
  {
    kind: 'preference',
    pattern: /\bI(?: really| just| absolutely| totally| kind of| kinda| do)? (like|love|enjoy|prefer|adore|hate|dislike|can't stand|cannot stand|don't like|do not like|don't enjoy) (.+)/u,
    topic: 2,
    needsObject: true,
  },
  { kind: 'preference', pattern: /\bI(?:'m| am) (?:a (?:big |huge )?fan of|into|allergic to|afraid of|scared of) (.+)/u, topic: 1, needsObject: true },
  { kind: 'preference', pattern: /\bI(?:'m| am) (vegetarian|vegan|lactose intolerant|an? (?:early bird|night owl|introvert|extrovert))/u, topic: 1 },
  { kind: 'preference', pattern: /\b(?:keep|make) (?:your |the )?(?:answers|replies|messages) (short|shorter|brief|longer|detailed)/iu, topic: 1 },
  {
    kind: 'preference',
    pattern: /我(?:很|真的|超|最|非常|比較|比较|蠻|蛮|挺|好|特別|特别|一直|也)?(喜歡|喜欢|愛吃|爱吃|愛喝|爱喝|愛|爱|討厭|讨厌|不喜歡|不喜欢|受不了|偏好|熱愛|热爱|迷上了?|怕|害怕|對.{1,6}過敏|对.{1,6}过敏)(.+)/u,
    topic: 2,
    needsObject: true,
  },
  { kind: 'preference', pattern: /我(?:是|吃)(素食者|素食|全素|吃素)|我吃(素)/u, topic: 1 },
  { kind: 'preference', pattern: /(?:回答|回覆|回复|說話|说话)(?:請|请)?(?:簡短|简短|短一點|短一点|詳細|详细)/u },

  // Plans: the verb says it is a plan whatever the time; vaguer verbs need a time.
  {
    kind: 'plan',
    pattern: /\bI(?:'m| am| have been|'ve been) (?:training for|preparing for|planning (?:to|on)|signed up for|registered for|saving (?:up )?for|applying (?:to|for)|studying for|getting ready for|learning|practicing|practising) (.+)/u,
    topic: 1,
  },
  { kind: 'plan', pattern: /\bI(?:'ve| have)? (?:signed up for|registered for|booked|decided to|plan to|intend to) (.+)/u, topic: 1 },
  { kind: 'plan', pattern: /\bI(?:'m| am) (?:going to|gonna|about to|moving to|starting|getting married|flying to|traveling to|travelling to|visiting|taking) (.+)/u, topic: 1, needsWhen: true },
  { kind: 'plan', pattern: /\bI(?:'ll| will| have to| need to) (.+)/u, topic: 1, needsWhen: true },
  {
    kind: 'plan',
    pattern: /我(?:正在|在|最近在|已經|已经|開始|开始)?(?:準備|准备|打算|計畫|計劃|计划|預計|预计|決定|决定|報名了?|报名了?|訓練|训练|備考|备考|存錢|存钱)(.+)/u,
    topic: 1,
  },
  { kind: 'plan', pattern: /我(?:最近|現在|现在)?(?:正在|在)(?:學|学|練|练)(.+)/u, topic: 1 },
  { kind: 'plan', pattern: /我(?:[^，,。！!？?]{0,8})?(?:要|會|会|將|将|想要|得|需要)(.+)/u, topic: 1, needsWhen: true },

  // Facts about their life.
  { kind: 'fact', pattern: /\bI (?:live|grew up) (?:in|with) (.+)/u, topic: 1 },
  { kind: 'fact', pattern: /\bI(?:'m| am) from (.+)/u, topic: 1 },
  { kind: 'fact', pattern: /\bI (?:work|am working|'m working) (?:as|at|for|in) (.+)/u, topic: 1 },
  { kind: 'fact', pattern: /\bI(?:'m| am) (?:a|an) ((?:\w+ )?(?:student|teacher|engineer|nurse|doctor|designer|developer|programmer|lawyer|writer|artist|manager|accountant|chef|cook|musician|researcher|freelancer|founder|barista|pharmacist|photographer|mom|mother|dad|father|parent))\b/u, topic: 1 },
  { kind: 'fact', pattern: /\bI(?:'m| am) (?:studying|majoring in) (.+)/u, topic: 1 },
  { kind: 'fact', pattern: /\bI(?:'m| am) (\d{1,3}) (?:years old|now)\b/u, topic: 1 },
  { kind: 'fact', pattern: /\b[Mm]y birthday is (.+)/u, topic: 0 },
  { kind: 'fact', pattern: /\bI have (?:a|an|two|three|\d+) (dogs?|cats?|kids?|children|sons?|daughters?|sisters?|brothers?)\b/u, topic: 1 },
  { kind: 'fact', pattern: /我(?:現在|现在|目前)?住在(.+)/u, topic: 1 },
  { kind: 'fact', pattern: /我(?:是)?(?:來自|来自|從|从)(.+?)(?:來的|来的)?$/u, topic: 1 },
  { kind: 'fact', pattern: /我(?:現在|现在|目前)?在(.{1,12}?)(?:工作|上班|實習|实习|唸書|念书|讀書|读书|上學|上学|讀|读)/u, topic: 1 },
  {
    kind: 'fact',
    pattern: /我(?:現在|现在|目前)?是(?:一[名個个位])?(.{0,6}?(?:學生|学生|老師|老师|工程師|工程师|護理師|护理师|護士|护士|醫生|医生|設計師|设计师|律師|律师|會計|会计|廚師|厨师|研究生|大學生|大学生|高中生|上班族|自由工作者|媽媽|妈妈|爸爸))/u,
    topic: 1,
  },
  { kind: 'fact', pattern: /我(?:今年)?(\d{1,3}|[一二三四五六七八九十]{1,3})[歲岁]/u, topic: 1 },
  { kind: 'fact', pattern: /我的生日是(.+)/u, topic: 0 },
  { kind: 'fact', pattern: /我(?:家)?(?:養了?|养了?|有)(?:一|兩|两|三|\d)?[隻只個个位](狗|貓|猫|小孩|孩子|兒子|儿子|女兒|女儿)/u, topic: 1 },

  // Things that just happened to them.
  {
    kind: 'event',
    pattern: /\bI (?:just |finally |recently )?(?:got (?:a new|a|the|into|engaged|married|promoted|accepted|fired|laid off)|passed|failed|lost|won|finished|graduated|broke up with|quit|started|moved) (.+)/u,
    topic: 1,
  },
  {
    kind: 'event',
    pattern: /我(?:剛|刚|剛剛|刚刚|終於|终于|昨天|今天|上週|上周|上個月|上个月|最近)?(?:跟.{1,6}?)?(考上|通過了?|通过了?|錄取|录取|升職|升职|分手|結婚|结婚|訂婚|订婚|搬到|搬家|換工作|换工作|辭職|辞职|離職|离职|畢業|毕业|失業|失业|被裁員|被裁员|拿到|找到新工作)(.*)/u,
    topic: 0,
  },
]

/** A sentence whose subject is one of their people, not the person: "My mom is visiting", "我媽下週要來". */
const RELATION_SUBJECT = new RegExp(`^(?:[Mm]y (?:${REL_EN})\\b|我(?:的)?(?:${REL_ZH}))`, 'u')

const SENTENCE = /[^.!?。！？\n;；]+[.!?。！？;；]*/gu

function sentencesOf(text: string): string[] {
  return (text.normalize('NFKC').match(SENTENCE) ?? []).map((s) => s.trim()).filter(Boolean)
}

/** A topic short enough for a chip: up to four words, or six Chinese characters. */
function shortTopic(topic: string): string {
  const flat = topic
    .split(/[,;:，；、]/u)[0]
    .replace(new RegExp(WHEN_EN.source, 'gi'), ' ')
    .replace(new RegExp(WHEN_ZH.source, 'gu'), '')
    .replace(/\b(?:on|in|by|at)\s*$/i, '')
    .replace(/[.!?。！？]+$/u, '')
    .replace(/\s+/g, ' ')
    .trim()
  if (/\p{Script=Han}/u.test(flat) && !/\s/.test(flat)) return [...flat].slice(0, 8).join('')
  return flat
    .replace(/^(?:to |a |an |the |my |for |in |at |on )+/i, '')
    .split(' ')
    .slice(0, 4)
    .join(' ')
    .slice(0, 60)
}

const RELATION_LABEL_ZH: Record<string, string> = { 媽: '媽媽', 妈: '妈妈', 爸: '爸爸' }

/** A relation's kind: a plan or event when the sentence says when, else a memory about the person. */
function personKind(sentence: string): MemoryKind {
  return WHEN_EN.test(sentence) || WHEN_ZH.test(sentence) ? 'event' : 'person'
}

function isFirstPerson(sentence: string): boolean {
  return /\b(?:I|I'm|I've|I'll|I'd|[Mm]y|me)\b/.test(sentence) || /我/.test(sentence) || /\b(?:keep|make) (?:your |the )?(?:answers|replies)/i.test(sentence) || /回答|回覆|回复/.test(sentence)
}

/**
 * The memories in one message of the person, at most one per sentence. `knownNames` are the people of their graph:
 * a sentence naming one is linked to them even without a relation word.
 */
export function extractByRules(message: string, knownNames: string[] = []): ExtractedMemory[] {
  const found: ExtractedMemory[] = []
  for (const raw of sentencesOf(message)) {
    const sentence = raw
      .replace(/^(?:and|but|so|also|oh|well|btw|by the way|anyway|actually|嗯|對了|对了|還有|还有|其實|其实|而且|然後|然后)[,，\s]*/iu, '')
      // Adverbs between the subject and the verb do not change what is said.
      .replace(/\bI (?:also|still|currently|now|actually|recently|usually|always) /g, 'I ')
      .replace(/^我(?:也|還|还|都|一直)(?=[在是住喜愛爱討讨])/u, '我')
    if (QUESTION.test(sentence) || HYPOTHETICAL.test(sentence)) continue
    if (OTHER_SUBJECT_EN.test(sentence) || OTHER_SUBJECT_ZH.test(sentence)) continue
    if (!isFirstPerson(sentence)) continue
    const memory = matchSentence(sentence, knownNames)
    if (memory && !found.some((m) => m.text === memory.text)) found.push(memory)
  }
  return found
}

function matchSentence(sentence: string, knownNames: string[]): ExtractedMemory | null {
  const text = sentence.replace(/\s+/g, ' ').trim().slice(0, 500)
  const known = knownNames.find((name) => name.trim() && sentence.toLowerCase().includes(name.toLowerCase()))
  for (const rule of RULES) {
    const match = rule.pattern.exec(sentence)
    if (!match) continue
    const topic = rule.topic === undefined ? '' : (match[rule.topic] ?? '').trim()
    if (rule.needsObject && (!topic || OBJECT_PRONOUN_EN.test(topic) || OBJECT_PRONOUN_ZH.test(topic) || /^(?:你|妳|您)/u.test(topic))) continue
    if (rule.needsWhen && (!(WHEN_EN.test(sentence) || WHEN_ZH.test(sentence)) || RELATION_SUBJECT.test(sentence))) continue
    if (rule.kind === 'auto') {
      const name = (match[rule.name!] ?? '').trim()
      const relation = match[rule.relation!]
      if (!name) continue
      return { kind: personKind(sentence), text, label: `${name} · ${RELATION_LABEL_ZH[relation] ?? relation}`, personName: name }
    }
    const label = (rule.topic !== 0 && topic && shortTopic(topic)) || shortTopic(text)
    return { kind: rule.kind, text, label: label || shortTopic(text), personName: known ?? null }
  }
  // A sentence about a known person with no other pattern: still worth keeping when it says when.
  if (known && (WHEN_EN.test(sentence) || WHEN_ZH.test(sentence)) && /\bmy\b|我/i.test(sentence))
    return { kind: 'event', text, label: known, personName: known }
  // A relation with no name ("my mom is visiting next week", "我媽下週來"): about that relation.
  const relation = new RegExp(`\\b[Mm]y (${REL_EN})\\b`, 'u').exec(sentence) ?? new RegExp(`我(?:的)?(${REL_ZH})`, 'u').exec(sentence)
  if (relation && (WHEN_EN.test(sentence) || WHEN_ZH.test(sentence))) {
    const label = RELATION_LABEL_ZH[relation[1]] ?? relation[1]
    return { kind: 'event', text, label, personName: null }
  }
  return null
}
