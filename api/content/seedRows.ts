// The built-in rows of each content definition, in English, Traditional and Simplified Chinese. Admins may
// edit every one; the seed only adds rows that were never written (api/content/seed.ts).
import type { LimitPeriod } from '../config'
import { DEFAULT_PLANS } from '../payments/plans'
import type { Lang, RELATIONSHIP_TYPES } from './definitions'
import type { ScalarValue, Translations } from './values'

export interface SeedRow {
  /** Stable name of the row, so a restart finds it already written. */
  key: string
  /** Fields that are not translated. */
  values?: Record<string, ScalarValue | string[]>
  /** The translated fields per language; English also becomes the stored value. */
  texts?: Record<Lang, Translations>
}

const tri = (field: string, en: string, zhTW: string, zhCN: string): Record<Lang, Translations> => ({
  ENUS: { [field]: en },
  ZHTW: { [field]: zhTW },
  ZHCN: { [field]: zhCN },
})

const ROLE_HINTS: [string, string, string][] = [
  ['A calm, confident leader who listens before deciding.', '一位沉著自信的領導者，先傾聽再做決定。', '一位沉着自信的领导者，先倾听再做决定。'],
  ['A writer who finishes what they start and shares it with the world.', '一位有始有終的作家，勇於把作品分享給世界。', '一位有始有终的作家，勇于把作品分享给世界。'],
  ['A patient parent who stays kind even on the hardest days.', '一位有耐心的父母，即使在最難熬的日子也保持溫柔。', '一位有耐心的父母，即使在最难熬的日子也保持温柔。'],
  ['A founder who turns setbacks into lessons and keeps building.', '一位把挫折化為養分、持續打造事業的創業者。', '一位把挫折化为养分、持续打造事业的创业者。'],
  ['Someone who sets clear boundaries without feeling guilty.', '一個能清楚設立界線、而不感到內疚的人。', '一个能清楚设立界线、而不感到内疚的人。'],
  ['A healthy, energetic person who moves every day and sleeps well.', '一個每天運動、睡得好、充滿活力的健康的人。', '一个每天运动、睡得好、充满活力的健康的人。'],
  ['A good friend who shows up, remembers the little things and keeps in touch.', '一位總會出現、記得小事，也常保持聯繫的好朋友。', '一位总会出现、记得小事，也常保持联系的好朋友。'],
  ['Someone who spends with intention and saves without stress.', '一個花錢有意識、存錢不焦慮的人。', '一个花钱有意识、存钱不焦虑的人。'],
  ['A lifelong learner who is curious about everything and never afraid to ask.', '一位對萬事好奇、從不害怕發問的終身學習者。', '一位对万事好奇、从不害怕发问的终身学习者。'],
  ['A confident speaker who shares ideas clearly in front of any crowd.', '一位能在任何場合清楚表達想法的自信講者。', '一位能在任何场合清楚表达想法的自信讲者。'],
  ['Someone who has made peace with the past and lives fully in the present.', '一個已與過去和解、全然活在當下的人。', '一个已与过去和解、全然活在当下的人。'],
  ['A creative soul who makes something every week, just for the joy of it.', '一個每週都為了純粹的快樂而創作的人。', '一个每周都为了纯粹的快乐而创作的人。'],
  ['A steady partner who communicates openly and handles conflict with care.', '一位能坦誠溝通、用心處理衝突的穩定伴侶。', '一位能坦诚沟通、用心处理冲突的稳定伴侣。'],
  ['A focused professional who does deep work and leaves work at work.', '一位能專注投入工作、下班就放下工作的專業人士。', '一位能专注投入工作、下班就放下工作的专业人士。'],
  ['A brave traveller who says yes to new places and new people.', '一位勇於對新地方、新朋友說「好」的旅人。', '一位勇于对新地方、新朋友说“好”的旅人。'],
  ['A kind mentor who helps others grow without needing the credit.', '一位幫助他人成長、卻不居功的溫暖導師。', '一位帮助他人成长、却不居功的温暖导师。'],
  ['Someone who handles stress gracefully and bounces back quickly.', '一個能從容面對壓力、並很快重新振作的人。', '一个能从容面对压力、并很快重新振作的人。'],
  ['A disciplined runner training for a marathon, one run at a time.', '一位自律的跑者，一步一步為馬拉松做準備。', '一位自律的跑者，一步一步为马拉松做准备。'],
  ['A grounded person who trusts their own judgement and stops seeking approval.', '一個踏實、相信自己判斷、不再尋求他人認可的人。', '一个踏实、相信自己判断、不再寻求他人认可的人。'],
  ['A warm host whose home is always full of laughter and good food.', '一位熱情好客的主人，家裡總是充滿笑聲與美食。', '一位热情好客的主人，家里总是充满笑声与美食。'],
]

type RelationshipType = (typeof RELATIONSHIP_TYPES)[number]
// Label and description in English, Traditional and Simplified Chinese, and a chip colour. The colours sit
// 22.5° apart on the hue wheel, light enough for at least 4.5:1 contrast on the dark theme.
const RELATIONSHIPS: [RelationshipType, string, [string, string], [string, string], [string, string]][] = [
  ['COLLEAGUE', '#829DED', ['Colleague', 'Someone you work with or have worked with.'], ['同事', '一起工作或曾經共事的人。'], ['同事', '一起工作或曾经共事的人。']],
  ['PARENTS', '#D2E64C', ['Parent', 'Your mother, your father or someone who raised you.'], ['父母', '你的母親、父親，或撫養你長大的人。'], ['父母', '你的母亲、父亲，或抚养你长大的人。']],
  ['UNCLE', '#60E64C', ['Uncle', "A brother of one of your parents, or an aunt's husband."], ['叔伯舅舅', '父母的兄弟，或姑姑、阿姨的丈夫。'], ['叔伯舅舅', '父母的兄弟，或姑姑、阿姨的丈夫。']],
  ['NIECE', '#ED82D2', ['Niece', "A daughter of your brother or sister, or of your partner's siblings."], ['姪女／外甥女', '兄弟姊妹（或伴侶的兄弟姊妹）的女兒。'], ['侄女／外甥女', '兄弟姐妹（或伴侣的兄弟姐妹）的女儿。']],
  ['SIBLINGS', '#4CE6AC', ['Sibling', 'A brother or sister, including half- and step-siblings.'], ['兄弟姊妹', '你的兄弟或姊妹，包括同父異母、同母異父或繼親的手足。'], ['兄弟姐妹', '你的兄弟或姐妹，包括同父异母、同母异父或继亲的手足。']],
  ['CHILDREN', '#99E64C', ['Child', 'Your son or daughter, by birth, adoption or marriage.'], ['子女', '你的兒子或女兒，無論親生、收養或繼親。'], ['子女', '你的儿子或女儿，无论亲生、收养或继亲。']],
  ['GRANDCHILDREN', '#E6BF4C', ['Grandchild', 'A child of your son or daughter.'], ['孫子女', '你的兒子或女兒的孩子。'], ['孙子女', '你的儿子或女儿的孩子。']],
  ['AUNTY', '#B882ED', ['Aunt', "A sister of one of your parents, or an uncle's wife."], ['姑姑阿姨', '父母的姊妹，或叔伯舅舅的妻子。'], ['姑姑阿姨', '父母的姐妹，或叔伯舅舅的妻子。']],
  ['GRANDPARENTS', '#ED82AA', ['Grandparent', 'A parent of your mother or father.'], ['祖父母', '你的父親或母親的父母。'], ['祖父母', '你的父亲或母亲的父母。']],
  ['COUSINS', '#4CE6E6', ['Cousin', 'A child of your aunt or uncle.'], ['表親／堂親', '你的叔伯姑姑舅舅阿姨的孩子。'], ['表亲／堂亲', '你的叔伯姑姑舅舅阿姨的孩子。']],
  ['NEPHEW', '#8F82ED', ['Nephew', "A son of your brother or sister, or of your partner's siblings."], ['姪子／外甥', '兄弟姊妹（或伴侶的兄弟姊妹）的兒子。'], ['侄子／外甥', '兄弟姐妹（或伴侣的兄弟姐妹）的儿子。']],
  ['MENTOR_ADVISOR', '#82C5ED', ['Mentor / advisor', 'Someone who guides you: a teacher, coach, manager or counsellor.'], ['導師／顧問', '指引你的人：老師、教練、主管或諮詢者。'], ['导师／顾问', '指引你的人：老师、教练、主管或咨询者。']],
  ['PAST_RELATIONSHIP', '#EDAA82', ['Past relationship', 'A former partner, or someone you were once close to.'], ['過去的關係', '前任伴侶，或曾經很親近的人。'], ['过去的关系', '前任伴侣，或曾经很亲近的人。']],
  ['ROMANTIC_PARTNER', '#ED8282', ['Romantic partner', 'Your partner, spouse, or the person you are dating.'], ['伴侶', '你的伴侶、配偶，或正在交往的對象。'], ['伴侣', '你的伴侣、配偶，或正在交往的对象。']],
  ['CLOSE_FRIEND', '#4CE673', ['Close friend', 'A friend you trust and talk to often.'], ['摯友', '你信任、也常常聊天的朋友。'], ['挚友', '你信任、也常常聊天的朋友。']],
  ['SOMEONE_I_HAVE_LOST', '#E082ED', ['Someone I have lost', 'Someone who has passed away or is no longer in your life.'], ['失去的人', '已經離世，或不再出現在你生命中的人。'], ['失去的人', '已经离世，或不再出现在你生命中的人。']],
]

const ALLOWANCE_TEXT: Record<LimitPeriod, [string, string, string]> = {
  day: ['every day', '每天', '每天'],
  week: ['every week', '每週', '每周'],
}

function planRows(free: { messageLimit: number; period: LimitPeriod }): SeedRow[] {
  const [en, zhTW, zhCN] = ALLOWANCE_TEXT[free.period]
  const premium = (id: 'subscriptionMonthly' | 'subscriptionYearly', period: 'month' | 'year') => ({
    priceUsd: DEFAULT_PLANS[id].displayPriceCents / 100,
    twdAmount: DEFAULT_PLANS[id].twdAmount,
    period,
    messageAllowance: 0,
    unlimitedMessages: true,
  })
  return [
    {
      key: 'free',
      values: { planId: 'free', priceUsd: 0, twdAmount: 0, period: free.period, messageAllowance: free.messageLimit, unlimitedMessages: false },
      texts: {
        ENUS: { name: 'Free', description: `${free.messageLimit} messages with your Ideal Self ${en}.` },
        ZHTW: { name: '免費方案', description: `${zhTW}可與你的理想自我傳送 ${free.messageLimit} 則訊息。` },
        ZHCN: { name: '免费方案', description: `${zhCN}可与你的理想自我发送 ${free.messageLimit} 条消息。` },
      },
    },
    {
      key: 'subscriptionMonthly',
      values: { planId: 'subscriptionMonthly', ...premium('subscriptionMonthly', 'month') },
      texts: {
        ENUS: { name: 'Premium Monthly', description: 'Unlimited messages with your Ideal Self. Renews every month; cancel any time.' },
        ZHTW: { name: '進階月方案', description: '與你的理想自我無限暢聊。每月自動續訂，可隨時取消。' },
        ZHCN: { name: '高级月方案', description: '与你的理想自我无限畅聊。每月自动续订，可随时取消。' },
      },
    },
    {
      key: 'subscriptionYearly',
      values: { planId: 'subscriptionYearly', ...premium('subscriptionYearly', 'year') },
      texts: {
        ENUS: { name: 'Premium Yearly', description: 'Unlimited messages with your Ideal Self, for less than paying monthly. Renews every year; cancel any time.' },
        ZHTW: { name: '進階年方案', description: '與你的理想自我無限暢聊，比按月訂閱更划算。每年自動續訂，可隨時取消。' },
        ZHCN: { name: '高级年方案', description: '与你的理想自我无限畅聊，比按月订阅更划算。每年自动续订，可随时取消。' },
      },
    },
  ]
}

// Each row: region, source pages the numbers were checked against, then the text in English, Traditional and
// Simplified Chinese. Numbers are Markdown links so a phone dials or texts them with one tap.
const CRISIS: [string, string, string, string, string][] = [
  [
    'US',
    'https://988lifeline.org',
    'United States: call or text [988](tel:988) (988 Suicide & Crisis Lifeline, free, 24/7) or chat at https://988lifeline.org. In an emergency call [911](tel:911).',
    '美國：撥打或傳簡訊至 [988](tel:988)（988 自殺與危機生命線，免費，24 小時），或到 https://988lifeline.org 線上交談。緊急情況請撥 [911](tel:911)。',
    '美国：拨打或发短信至 [988](tel:988)（988 自杀与危机生命线，免费，24 小时），或到 https://988lifeline.org 在线交谈。紧急情况请拨 [911](tel:911)。',
  ],
  [
    'CA',
    'https://988.ca',
    'Canada: call or text [988](tel:988) (9-8-8 Suicide Crisis Helpline, free, 24/7, English and French). In an emergency call [911](tel:911).',
    '加拿大：撥打或傳簡訊至 [988](tel:988)（9-8-8 自殺危機求助專線，免費，24 小時，英語及法語）。緊急情況請撥 [911](tel:911)。',
    '加拿大：拨打或发短信至 [988](tel:988)（9-8-8 自杀危机求助热线，免费，24 小时，英语及法语）。紧急情况请拨 [911](tel:911)。',
  ],
  [
    'GB',
    'https://www.samaritans.org/how-we-can-help/contact-samaritan/ https://giveusashout.org/about-us/faq',
    'United Kingdom: call Samaritans on [116 123](tel:116123) (free, 24/7) or text SHOUT to [85258](sms:85258). In an emergency call [999](tel:999).',
    '英國：撥打撒瑪利亞會 [116 123](tel:116123)（免費，24 小時），或傳簡訊 SHOUT 至 [85258](sms:85258)。緊急情況請撥 [999](tel:999)。',
    '英国：拨打撒玛利亚会 [116 123](tel:116123)（免费，24 小时），或发短信 SHOUT 至 [85258](sms:85258)。紧急情况请拨 [999](tel:999)。',
  ],
  [
    'IE',
    'https://www.samaritans.org/ireland/how-we-can-help/contact-samaritan/ https://www.pieta.ie',
    'Ireland: call Samaritans on [116 123](tel:116123) (free, 24/7) or Pieta on [1800 247 247](tel:1800247247), or text HELP to [51444](sms:51444). In an emergency call [112](tel:112) or [999](tel:999).',
    '愛爾蘭：撥打撒瑪利亞會 [116 123](tel:116123)（免費，24 小時）或 Pieta [1800 247 247](tel:1800247247)，或傳簡訊 HELP 至 [51444](sms:51444)。緊急情況請撥 [112](tel:112) 或 [999](tel:999)。',
    '爱尔兰：拨打撒玛利亚会 [116 123](tel:116123)（免费，24 小时）或 Pieta [1800 247 247](tel:1800247247)，或发短信 HELP 至 [51444](sms:51444)。紧急情况请拨 [112](tel:112) 或 [999](tel:999)。',
  ],
  [
    'AU',
    'https://www.lifeline.org.au https://www.suicidecallbackservice.org.au',
    'Australia: call Lifeline on [13 11 14](tel:131114) or text [0477 13 11 14](sms:0477131114) (24/7), or the Suicide Call Back Service on [1300 659 467](tel:1300659467). In an emergency call [000](tel:000).',
    '澳洲：撥打 Lifeline [13 11 14](tel:131114) 或傳簡訊至 [0477 13 11 14](sms:0477131114)（24 小時），或自殺回電服務 [1300 659 467](tel:1300659467)。緊急情況請撥 [000](tel:000)。',
    '澳大利亚：拨打 Lifeline [13 11 14](tel:131114) 或发短信至 [0477 13 11 14](sms:0477131114)（24 小时），或自杀回电服务 [1300 659 467](tel:1300659467)。紧急情况请拨 [000](tel:000)。',
  ],
  [
    'NZ',
    'https://1737.org.nz https://www.lifeline.org.nz',
    'New Zealand: call or text [1737](tel:1737) (free, 24/7), or Lifeline on [0800 543 354](tel:0800543354) or text [4357](sms:4357). In an emergency call [111](tel:111).',
    '紐西蘭：撥打或傳簡訊至 [1737](tel:1737)（免費，24 小時），或 Lifeline [0800 543 354](tel:0800543354)、簡訊 [4357](sms:4357)。緊急情況請撥 [111](tel:111)。',
    '新西兰：拨打或发短信至 [1737](tel:1737)（免费，24 小时），或 Lifeline [0800 543 354](tel:0800543354)、短信 [4357](sms:4357)。紧急情况请拨 [111](tel:111)。',
  ],
  [
    'TW',
    'https://www.mohw.gov.tw/cp-4365-48617-1.html http://www.1995.org.tw https://www.1980.org.tw',
    'Taiwan: call [1925](tel:1925) (Ministry of Health and Welfare Suicide Prevention Line, free, 24 hours), [1995](tel:1995) (Lifeline) or [1980](tel:1980) (Teacher Chang). In an emergency call [119](tel:119) or [110](tel:110).',
    '台灣：請撥打 [1925](tel:1925) 安心專線（衛生福利部，免付費，24 小時）、[1995](tel:1995) 生命線或 [1980](tel:1980) 張老師專線。緊急情況請撥 [119](tel:119) 或 [110](tel:110)。',
    '台湾：请拨打 [1925](tel:1925) 安心专线（卫生福利部，免费，24 小时）、[1995](tel:1995) 生命线或 [1980](tel:1980) 张老师专线。紧急情况请拨 [119](tel:119) 或 [110](tel:110)。',
  ],
  [
    'HK',
    'https://www.news.gov.hk/eng/2023/12/20231227/20231227_162155_701.html https://samaritans.org.hk https://sbhk.org.hk',
    'Hong Kong: call the Mental Health Support Hotline [18111](tel:18111) (24 hours), The Samaritans on [2896 0000](tel:28960000) (24 hours, multilingual) or The Samaritan Befrienders Hong Kong on [2389 2222](tel:23892222). In an emergency call [999](tel:999).',
    '香港：請撥打精神健康支援熱線 [18111](tel:18111)（24 小時）、撒瑪利亞會 [2896 0000](tel:28960000)（24 小時，多語言）或香港撒瑪利亞防止自殺會 [2389 2222](tel:23892222)。緊急情況請撥 [999](tel:999)。',
    '香港：请拨打精神健康支援热线 [18111](tel:18111)（24 小时）、撒玛利亚会 [2896 0000](tel:28960000)（24 小时，多语言）或香港撒玛利亚防止自杀会 [2389 2222](tel:23892222)。紧急情况请拨 [999](tel:999)。',
  ],
  [
    'CN',
    'http://www.nhc.gov.cn https://www.bjxlwj.com',
    'Mainland China: call [12356](tel:12356) (national psychological assistance hotline) or [400-161-9995](tel:4001619995) (Hope 24, 24 hours); in Beijing also [010-82951332](tel:01082951332) (24 hours). In an emergency call [120](tel:120) or [110](tel:110).',
    '中國大陸：請撥打 [12356](tel:12356) 全國心理援助熱線或 [400-161-9995](tel:4001619995) 希望24熱線（24 小時）；北京另可撥 [010-82951332](tel:01082951332)（24 小時）。緊急情況請撥 [120](tel:120) 或 [110](tel:110)。',
    '中国大陆：请拨打 [12356](tel:12356) 全国心理援助热线或 [400-161-9995](tel:4001619995) 希望24热线（24 小时）；北京另可拨 [010-82951332](tel:01082951332)（24 小时）。紧急情况请拨 [120](tel:120) 或 [110](tel:110)。',
  ],
  [
    'SG',
    'https://www.sos.org.sg https://www.mindline.sg',
    'Singapore: call Samaritans of Singapore on [1767](tel:1767) (24 hours) or message CareText on WhatsApp at [9151 1767](https://wa.me/6591511767), or the National Mindline on [1771](tel:1771). In an emergency call [995](tel:995).',
    '新加坡：請撥打新加坡援人協會 [1767](tel:1767)（24 小時），或用 WhatsApp 傳訊息至 [9151 1767](https://wa.me/6591511767)，或撥打國家心理支援熱線 [1771](tel:1771)。緊急情況請撥 [995](tel:995)。',
    '新加坡：请拨打新加坡援人协会 [1767](tel:1767)（24 小时），或用 WhatsApp 发消息至 [9151 1767](https://wa.me/6591511767)，或拨打国家心理支援热线 [1771](tel:1771)。紧急情况请拨 [995](tel:995)。',
  ],
  [
    'MY',
    'https://www.befrienders.org.my https://www.moh.gov.my',
    'Malaysia: call Befrienders Kuala Lumpur on [03-7627 2929](tel:0376272929) (24 hours) or Talian HEAL on [15555](tel:15555) (8 am to midnight). In an emergency call [999](tel:999).',
    '馬來西亞：請撥打吉隆坡善友協會 [03-7627 2929](tel:0376272929)（24 小時）或 Talian HEAL [15555](tel:15555)（上午 8 點至午夜）。緊急情況請撥 [999](tel:999)。',
    '马来西亚：请拨打吉隆坡善友协会 [03-7627 2929](tel:0376272929)（24 小时）或 Talian HEAL [15555](tel:15555)（上午 8 点至午夜）。紧急情况请拨 [999](tel:999)。',
  ],
  [
    'JP',
    'https://www.since2011.net/yorisoi/ https://www.inochinodenwa.org https://telljp.com',
    'Japan: call the Yorisoi Hotline on [0120-279-338](tel:0120279338) (free, 24 hours), Inochi no Denwa on [0120-783-556](tel:0120783556) (free; hours vary) or, in English, TELL Lifeline on [03-5774-0992](tel:0357740992) (9 am to 11 pm). In an emergency call [119](tel:119) or [110](tel:110).',
    '日本：請撥打「よりそいホットライン」[0120-279-338](tel:0120279338)（免費，24 小時）、「いのちの電話」[0120-783-556](tel:0120783556)（免費，時段依地區而定），或英語的 TELL Lifeline [03-5774-0992](tel:0357740992)（上午 9 點至晚上 11 點）。緊急情況請撥 [119](tel:119) 或 [110](tel:110)。',
    '日本：请拨打「よりそいホットライン」[0120-279-338](tel:0120279338)（免费，24 小时）、「いのちの電話」[0120-783-556](tel:0120783556)（免费，时段依地区而定），或英语的 TELL Lifeline [03-5774-0992](tel:0357740992)（上午 9 点至晚上 11 点）。紧急情况请拨 [119](tel:119) 或 [110](tel:110)。',
  ],
  [
    'INTL',
    'https://findahelpline.com',
    'Anywhere else: call your local emergency number (such as 112 or 911), or find a free, confidential helpline in your country at https://findahelpline.com.',
    '其他地區：請撥打當地的緊急電話（例如 112 或 911），或到 https://findahelpline.com 查詢你所在國家的免費保密求助專線。',
    '其他地区：请拨打当地的紧急电话（例如 112 或 911），或到 https://findahelpline.com 查询你所在国家的免费保密求助热线。',
  ],
]

export function seedRows(free: { messageLimit: number; period: LimitPeriod }): Record<string, SeedRow[]> {
  return {
    'role-hints': ROLE_HINTS.map(([en, zhTW, zhCN], i) => ({ key: `hint-${i + 1}`, texts: tri('text', en, zhTW, zhCN) })),
    'relationship-types': RELATIONSHIPS.map(([type, colour, en, zhTW, zhCN]) => ({
      key: type,
      values: { type, colour },
      texts: {
        ENUS: { label: en[0], description: en[1] },
        ZHTW: { label: zhTW[0], description: zhTW[1] },
        ZHCN: { label: zhCN[0], description: zhCN[1] },
      },
    })),
    'subscription-plans': planRows(free),
    // One track ships with the product (generated by scripts/makeAmbientTrack.ts); an admin can set others.
    'background-music': [
      { key: 'onboarding', values: { title: 'Onboarding ambience', url: '/audio/ideal-self-ambient.opus', volume: 40, screens: ['onboarding', 'select-character'] } },
      { key: 'conversation', values: { title: 'Quiet focus', url: '', volume: 25, screens: ['chat', 'relations', 'upload-chat-history'] } },
    ],
    support: [
      {
        key: 'support',
        values: { email: 'support@idealself.app', termsUrl: 'https://idealself.app/terms', privacyUrl: 'https://idealself.app/privacy' },
      },
    ],
    'crisis-resources': CRISIS.map(([region, source, en, zhTW, zhCN]) => ({ key: region, values: { region, source }, texts: tri('text', en, zhTW, zhCN) })),
  }
}
