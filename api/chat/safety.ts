// Does a message say the person intends to end their life or hurt themselves? A phrase list, not a model: it must
// answer even when the model is down, and it is deliberately narrow. Figures of speech ("this exam is killing me",
// "想死你了", "笑死") must not turn a normal chat into a crisis message, so every pattern needs the person as the
// one harmed plus wording of wanting, planning or being unable to go on.

const ENGLISH: RegExp[] = [
  // "I'm killing myself at work" is about effort, not intent.
  /\bkill(ing)? myself\b(?! (at|over|for|with|working|studying|trying)\b)/,
  /\b(end(ing)?|tak(e|ing)) my (own )?life\b/,
  /\b(want|wanna|going|gonna|just|should) (to )?end it all\b/,
  /\b(commit(ting)?|attempt(ing)?|consider(ing)?|contemplat(e|ing)|thinking (about|of)) suicide\b/,
  /\bsuicidal\b/,
  /\bsuicide (note|plan)\b/,
  // "want to die", but not "dying to see you" or "I'm going to die of embarrassment".
  /\b(want|wanna|ready|plan(ning)?|decided) (to )?die\b(?! (of|from|laughing|for)\b)/,
  /\bwish (i was|i were|i'd|i could be) dead\b/,
  /\bbetter off dead\b/,
  /\b(don't|do not|no longer) want to (live|be alive|exist)\b/,
  /\bno (reason|point) (to|in) (live|living|going on)\b/,
  /\bcan't go on (living|anymore|any more)\b/,
  // Self-harm needs an intent word before it: "I hurt myself at the gym" is not a crisis.
  /\b(want|wanna|going|gonna|urge|need|thinking (about|of)|tempted|plan(ning)?) (to )?(hurt|harm|cut|cutting|hurting|harming) myself\b/,
  /\b(i've been|i keep|i started|i'm) (cutting|hurting|harming) myself\b/,
  /\bself[- ]?harm(ing)?\b/,
]

// Traditional and Simplified forms side by side in each character class.
const CHINESE: RegExp[] = [
  // 想死 / 好想死 / 我想去死, but not 想死你了 / 想死我了 ("missed you to death") and not 不想死.
  /(?<!不)想(去)?死(?![你妳您他她它我])/,
  /不想活/,
  /活不下去/,
  /(活著|活着)(沒有?|没有?)(意思|意義|意义|意思了)/,
  /(想|要|打算|準備|准备|計劃|計畫|计划|決定|决定|乾脆|干脆|考慮|考虑)(要)?(自殺|自杀|輕生|轻生|尋死|寻死|自殘|自残|割腕|跳樓|跳楼)/,
  /(自殺|自杀)(的)?(念頭|念头|想法|衝動|冲动)/,
  /(結束|结束|了結|了结)(我)?(自己)?的?(生命|性命)/,
  /(殺|杀)(了|掉)?(我)?自己/,
  /(想|要)(傷害|伤害|弄傷|弄伤)自己/,
  /(死了|消失)(算了|比較好|比较好|一了百了)/,
  /不如死了/,
]

export function expressesSelfHarmIntent(text: string): boolean {
  const english = text.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'").replace(/\s+/g, ' ')
  const chinese = text.replace(/\s+/g, '')
  return ENGLISH.some((pattern) => pattern.test(english)) || CHINESE.some((pattern) => pattern.test(chinese))
}
