import { describe, expect, test } from 'vitest'
import { assessMessage, assessTurn, combineLayers, isShortAffirmation } from '../../../../api/chat/safety/detect'
import { messageSize } from '../../../../api/chat/safety/lexicalModel'
import { normalizeChinese, normalizeEnglish } from '../../../../api/chat/safety/normalize'
import { CATEGORIES } from '../../../../api/chat/safety/types'
import { scoreCorpus, loadCorpus } from './corpus'

// Labelled sets written apart from the rules, each over English, Traditional and Simplified Chinese, every
// category of the Columbia scale, and hard negatives (figures of speech, denials, fiction, study, grief, everyday).
const corpus = loadCorpus()

/** Each message, read on its own with no model, gets help first. */
function readsAsCrisis(texts: string[]) {
  for (const text of texts) expect(assessMessage(text).level, text).toBe('crisis')
}
/** Each message gets no help block with no model (a model may still weigh an uncertain one). */
function readsWithoutHelp(texts: string[]) {
  for (const text of texts) expect(assessMessage(text).level, text).not.toBe('crisis')
}
/** Each message is read as nothing to weigh at all. */
function readsAsNothing(texts: string[]) {
  for (const text of texts) expect(assessMessage(text).level, text).toBe('none')
}

describe('the labelled corpus', () => {
  test('is broad: 300+ messages, three languages, every category, at least 40% negatives', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300)
    for (const lang of ['en', 'zh-TW', 'zh-CN']) expect(corpus.filter((m) => m.lang === lang).length).toBeGreaterThanOrEqual(100)
    for (const category of CATEGORIES) expect(corpus.filter((m) => m.label === 'crisis' && m.category === category).length).toBeGreaterThanOrEqual(15)
    for (const negative of ['figure_of_speech', 'negation', 'fiction', 'study', 'grief', 'everyday'])
      expect(corpus.filter((m) => m.label === 'ordinary' && m.category === negative).length).toBeGreaterThanOrEqual(15)
    expect(corpus.filter((m) => m.label === 'ordinary').length / corpus.length).toBeGreaterThanOrEqual(0.4)
  })

  test.each(['en', 'zh-TW', 'zh-CN'])('%s: recall at least 97 per cent, false alarms at most 3 per cent', (lang) => {
    const score = scoreCorpus(corpus.filter((m) => m.lang === lang))
    expect(score.recall, score.misses.join('\n')).toBeGreaterThanOrEqual(0.97)
    expect(score.falseAlarmRate, score.falseAlarms.join('\n')).toBeLessThanOrEqual(0.03)
  })
})

describe('assessMessage', () => {
  test.each([
    'I want to kill myself',
    "I'm going to kill myself tonight",
    'i keep thinking about killing myself',
    'Sometimes I think about ending my life',
    'I just want to end it all',
    'I feel suicidal',
    "I've been thinking about suicide a lot",
    'I want to die',
    'honestly I wish I was dead',
    "I'd be better off dead",
    'I don’t want to live anymore',
    'I want to hurt myself again',
    "I've been cutting myself",
    'ngl i wanna kms',
    'im gonna unalive myself',
    'been thinking abt sewerslide again',
    '我想死',
    '我不想活了',
    '想自杀',
    '我想結束自己的生命',
    '死了算了',
    '一了百了算了',
    '遺書寫好了',
    '遗书已经写好了',
    '我唔想活喇',
  ])('crisis: "%s"', (text) => {
    expect(assessMessage(text).level).toBe('crisis')
  })

  test.each([
    'this exam is killing me',
    'My boss is going to kill me if I miss the deadline',
    "I'm killing myself at work these days",
    "I'm dying to see the new movie",
    "I'm going to die of embarrassment",
    'I hurt myself playing basketball yesterday',
    'We watched a documentary about suicide prevention',
    'I could kill for a coffee right now',
    "I'm not suicidal, just really tired",
    '想死你了！',
    '想死我了，終於見面了',
    '笑死我了',
    '今天累死了',
    '熱死了',
    '我不想死，我想好好活著',
    '她在自殺防治中心當志工',
    '我的理想是成為更勇敢的人',
    '气死我了，又加班',
  ])('ordinary: "%s"', (text) => {
    expect(assessMessage(text).level).not.toBe('crisis')
  })

  test('names the categories it found', () => {
    expect(assessMessage('what is the most painless way to die').categories).toContain('method_seeking')
    expect(assessMessage("I've been saving up my sleeping pills").categories).toContain('preparatory')
    expect(assessMessage('tonight is the night, I will do it tonight and end it').categories).toContain('intent_timing')
  })

  test('a denial or a recovery story sets aside only what it covers: what comes after still counts', () => {
    // Words between the denial and the wish do not turn it into a denial.
    expect(assessMessage('i dont really want to live anymore').level).toBe('crisis')
    expect(assessMessage("i don't even want to wake up tomorrow").level).toBe('crisis')
    expect(assessMessage('I want to live, I just don’t know how to get out of this rut').level).not.toBe('crisis')
    expect(assessMessage('i want to live but i keep thinking about killing myself').level).toBe('crisis')
    const recovered = 'In uni about 6 years ago I thought about ending it. I got help and I’m in a good place now.'
    expect(assessMessage(recovered).level).not.toBe('crisis')
    expect(assessMessage(`${recovered} But this week I want to kill myself again.`).level).toBe('crisis')
    const 走出來 = '高三那年想過結束生命，後來吃藥加諮商，現在研究生都畢業了，挺好的'
    expect(assessMessage(走出來).level).not.toBe('crisis')
    expect(assessMessage(`${走出來}。可是最近又想死了`).level).toBe('crisis')
    expect(assessMessage('雖然失戀很痛，但我沒有任何想死或傷害自己的念頭').level).not.toBe('crisis')
    // A question of whether to is not a denial: 要不要自殺, 有沒有想死 asked of oneself.
    expect(assessMessage('老實說這禮拜我很認真地在想要不要自殺').level).toBe('crisis')
    expect(assessMessage('说实话这周我很认真地在考虑要不要自杀').level).toBe('crisis')
    expect(assessMessage('我媽一直問我是不是想不開，沒有啦！我只是離職，又不是要跳樓').level).not.toBe('crisis')
    // The name of a subject is not the act: 自殺風險評估, "which drugs are lethal in overdose" for an exam.
    expect(assessMessage('明天護理實習要學自殺風險評估，要直接問病人有沒有想死，好緊張').level).not.toBe('crisis')
    expect(assessMessage('Pharmacology exam Friday, need to memorise which drugs are lethal in overdose').level).not.toBe('crisis')
    expect(assessMessage('Two years today since I last self-harmed 🎉 never thought I’d get here').level).not.toBe('crisis')
    // "Not a joke" is not a joke.
    expect(assessMessage('好想死 真的 不是平常講好玩的那種').level).toBe('crisis')
    expect(assessMessage('好想死喔 開玩笑的啦').level).not.toBe('crisis')
    // What changed since ends a recovery story; a relapse told after it still counts.
    const 改成跑步 = '以前壓力大的時候我會割自己，現在改成去跑步，今天跑了五公里'
    expect(assessMessage(改成跑步).level).not.toBe('crisis')
    expect(assessMessage(`${改成跑步}。可是昨晚又割了`).level).toBe('crisis')
    expect(assessMessage('本来答应咨询师不再划了 今天还是没忍住').level).toBe('crisis')
    expect(assessMessage("it's been 300 days without self harm!! my support group gave me a keyring").level).not.toBe('crisis')
    // "不想死後給家裡人留麻煩" is not a denial.
    expect(assessMessage('最近在整理东西 不想死后给家里人留麻烦').level).toBe('crisis')
  })

  test('a recovery told from the far side is set aside; the risk come back after it, or a denial taken back, is not', () => {
    readsAsNothing([
      'Promoted to team lead. In 2020 I was writing goodbye letters. Now I am writing performance reviews. I will take it.',
      'Future me, remember the bathroom floor nights? We don’t have those anymore.',
      '升組長了。2020年的我在寫遺書，現在的我在寫考績，我接受',
      '以前每天都在想怎么死，现在每天都在想中午吃黄焖鸡还是麻辣烫，康复就是这么朴实无华',
    ])
    readsAsCrisis([
      'In 2020 I was writing goodbye letters. I was fine for years but now I want to die again.',
      'My psychiatrist asked if I was safe and I said yes because I didn’t want to be admitted again. I lied.',
      'I told the nurse I had no thoughts of self harm so they’d discharge me. I lied.',
      '諮商師問我有沒有想自殺，我說沒有，那是騙她的，我每天都在想',
      '今天買了一條繩子，跟自己說是露營用的，我根本不露營',
      '剛剛說開玩笑的是假的，我是真的想死',
    ])
  })

  test('a story told from the far side is read from its turn to now: what was then is no sign, what is now still counts', () => {
    readsWithoutHelp([
      'Back in college I tried to overdose. These days I coach my daughter’s soccer team on Saturdays.',
      'When I was 19 I wrote goodbye letters to everyone. Ten years later I read one out at my wedding.',
      'i used to cut myself every night in high school but now i just knit when it gets loud in my head',
      '以前我常常想跳樓，現在在陽台種了一整排香草。',
      '国中的时候割过手腕，后来遇到很好的辅导老师，现在我自己也当老师了。',
      // A "又" inside the story belongs to the story.
      '我媽以前每天翻我抽屜，怕我又藏刀片。現在她不翻了，週末我們一起去逛市場。',
      '那年工廠倒閉，我在河堤坐了一整晚想結束一切。十年過去了，我現在帶孫子去同一個河堤放風箏。',
    ])
    readsAsCrisis([
      'Two years ago I tried to end it. Today I bought rope.',
      'I used to cut once a month. Now I do it every night.',
      'Years ago I was suicidal and got help. Now it is back and I have a plan.',
      'i used to joke about wanting to die. it stopped being a joke. i think about it seriously every day now',
      '以前想死只是偶爾，現在天天都在想要怎麼做。',
      '三年前吃過一次藥被救回來。現在我又開始存藥了。',
      '以前我会割手，后来停了两年，现在又开始了',
    ])
  })

  test('a question asking for the means is never set aside by a recovery, a denial or a joke told around it', () => {
    readsAsCrisis([
      'When I overdosed in 2015 the doctor said it wasn’t enough. How many would it take for someone my weight now? I’m fine, just curious.',
      'Back in college I looked at the bridge by campus. How high does a fall need to be to be fatal? I’m doing much better now.',
      '我以前吞過一次藥被救回來，現在很好啦。只是想知道那種藥吃多少會致命？純好奇',
      '以前抑郁的时候听说有些药和酒一起吃会出事，现在早就没那想法了，就是好奇是哪些药？',
    ])
    // Study still reads it as a topic.
    expect(assessMessage('For my pharmacology exam: which drugs are lethal in overdose? We have to memorize them.').level).not.toBe('crisis')
  })

  test('telling someone about a past, or asking how to help someone else, is not a crisis of the one telling', () => {
    readsWithoutHelp([
      'I finally told my sister about my suicide attempt in high school. She hugged me for ages. I feel lighter.',
      'Someone in my peer group asked how I stopped self harming. How much detail is too much when sharing my story?',
      '過年回家終於跟我媽講了我高中割手的事，她抱著我哭了很久，說對不起。',
      '和室友夜聊的时候提到我以前会划手，她说她初中也有过，我们聊到天亮。',
      '我表妹跟我說她在用小刀劃手，我自己當年也是這樣過來的。我該怎麼跟她聊？',
    ])
  })

  test('laughter softens a wish only beside it, and never one said to be meant', () => {
    expect(assessMessage('i want to die lol').level).not.toBe('crisis')
    expect(assessMessage('tripped up the stairs in front of my whole lecture. i want to die 😭').level).not.toBe('crisis')
    expect(assessMessage('sat on the kitchen floor thinking i wish i was dead. like properly. anyway hows your day lol').level).toBe('crisis')
    expect(assessMessage('i want to die lol. not joking').level).toBe('crisis')
    expect(assessMessage('我想死哈哈 說真的').level).toBe('crisis')
  })

  test('wording alone must be surer in a long message, where many mildly low words add up', () => {
    const nothing = { level: 'none' as const, categories: [] }
    expect(combineLayers(nothing, 0.8, 12).level).toBe('crisis')
    expect(combineLayers(nothing, 0.8, 45).level).toBe('uncertain')
    expect(combineLayers(nothing, 0.93, 45).level).toBe('crisis')
    // The rules are never held to it: a long message that says it outright is a crisis at any length.
    const long = `${'Work was long and the train was late and I missed dinner again. '.repeat(4)}I want to kill myself.`
    expect(messageSize(long)).toBeGreaterThan(30)
    expect(assessMessage(long).level).toBe('crisis')
  })

  test('risk words without clear intent are uncertain, not a crisis', () => {
    expect(assessMessage('i feel so hopeless lately').level).toBe('uncertain')
    expect(assessMessage('我最近好絕望').level).toBe('uncertain')
  })
})

describe('normalisation', () => {
  test('Simplified Chinese, Cantonese and Traditional meet the same rules', () => {
    expect(normalizeChinese('我想自杀')).toBe(normalizeChinese('我想自殺'))
    expect(normalizeChinese('唔想活')).toBe('不想活')
    expect(normalizeChinese('跳 落 去')).toBe('跳下去')
  })

  test('what hides a word is taken out: zero-width characters, look-alike letters, letters spaced out, "2" for "to"', () => {
    readsAsCrisis(['i want to k\u200bill myself', 'thinking about \u0455uicide', 'thinking about s u i c i d e', 'k.i.l.l my self tonight', 'i want 2 die', 'i feel sucidal', '#suicidal', '想\u200b死', '想\u00ad自殺', '我想ㄙ', '想自ㄕㄚ', '我想zisha', '不想活ㄌ'])
    readsAsNothing(['i a m fine', 'the u.s.a is big', 's.o.s my phone died', 'I want 2 tickets for the show', '笑到想原地去世', '我想去世界各地旅行'])
  })

  test('English shorthand is spelled out', () => {
    expect(normalizeEnglish("i dont wanna be here rn")).toContain('dont want to be here right now')
    expect(normalizeEnglish('kms')).toContain('kill myself')
    expect(normalizeEnglish('I’m')).toContain('im')
  })
})

describe('assessTurn: the conversation around a message', () => {
  const afterHelp = { previousUserText: 'I want to kill myself', previousReplyText: 'Are you safe right now?', previousReplyHadHelp: true }

  test.each(['yes', 'Yeah', 'I have', 'tonight', 'kinda', 'yes i do', '對', '嗯', '嗯嗯', '有', '今晚', '会'])(
    'a short "%s" after the companion asked about safety is a crisis',
    (text) => {
      expect(assessTurn(text, afterHelp).level).toBe('crisis')
    },
  )

  test.each(['no', 'no, I am safe', 'not really', '沒有', '不會啦', 'thanks, I feel better now'])('"%s" after the help block is not', (text) => {
    expect(assessTurn(text, afterHelp).level).not.toBe('crisis')
  })

  test('a safety question in the companion’s own words counts as asking', () => {
    expect(assessTurn('yes', { previousReplyText: 'That sounds so heavy. Are you thinking about ending your life?' }).level).toBe('crisis')
    expect(assessTurn('對', { previousReplyText: '你現在安全嗎？' }).level).toBe('crisis')
  })

  test('after the person’s own concerning message, a yes or an uncertain message is a crisis', () => {
    expect(assessTurn('yeah', { previousUserText: 'sometimes i wish i could disappear' }).level).toBe('crisis')
    expect(assessTurn('i feel hopeless', { previousUserText: 'i want to disappear' }).level).toBe('crisis')
  })

  test('after ordinary talk, a yes is just a yes', () => {
    expect(assessTurn('yes', { previousUserText: 'do you like ramen?', previousReplyText: 'I love ramen! Do you?' }).level).toBe('none')
    expect(isShortAffirmation('yes, and then we went to the beach and had a great time all day long')).toBe(false)
  })
})

describe('the lexical layer', () => {
  test('its committed weights are what the trainer makes of the committed corpus', async () => {
    const { train } = await import('../../../../scripts/trainCrisisModel')
    const { CORPUS_FILES, EVERYDAY_FILES } = await import('./corpus')
    const committed = (await import('../../../../api/chat/safety/lexicalModel.json')).default
    expect(train(loadCorpus([...CORPUS_FILES, ...EVERYDAY_FILES]))).toEqual(committed)
  }, 120_000)
})
