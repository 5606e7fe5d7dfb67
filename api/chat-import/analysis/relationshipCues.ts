// A first guess at a relationship type without a model: kinship and endearment words in the contact name, then
// what the two talk about. The person confirms or corrects it in the relationship editor.
import type { RELATIONSHIP_TYPES } from '../../content/definitions'

export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number]

interface Cue {
  type: RelationshipType
  /** Written characters matched anywhere in the name (Chinese and Japanese names have no word breaks). */
  chars?: string[]
  /** Whole words, case-insensitive. */
  words?: string[]
}

// Order matters: the more specific kin word wins ("表哥" is a cousin before "哥" is a brother, "老婆" a partner
// before "婆" means anything, "外甥女" a niece before "外甥" a nephew).
const NAME_CUES: Cue[] = [
  { type: 'ROMANTIC_PARTNER', chars: ['老公', '老婆', '寶貝', '宝贝', '親愛的', '亲爱的', '彼氏', '彼女', '旦那'], words: ['babe', 'baby', 'honey', 'hubby', 'wifey', 'sweetheart', 'darling', 'bae', 'my love'] },
  { type: 'GRANDPARENTS', chars: ['爺爺', '爷爷', '奶奶', '外公', '外婆', '阿公', '阿嬤', '阿嬷', '阿媽', '祖父', '祖母', 'おじいちゃん', 'おばあちゃん'], words: ['grandma', 'grandpa', 'granny', 'grandmother', 'grandfather', 'nana', 'gran'] },
  { type: 'GRANDCHILDREN', chars: ['孫子', '孫女', '孙子', '孙女', '外孫', '外孙'], words: ['grandson', 'granddaughter', 'grandchild'] },
  { type: 'COUSINS', chars: ['表哥', '表姐', '表姊', '表弟', '表妹', '堂哥', '堂姐', '堂姊', '堂弟', '堂妹', '表兄', '堂兄', 'いとこ', '従兄', '従姉'], words: ['cousin', 'cuz'] },
  { type: 'NIECE', chars: ['姪女', '侄女', '外甥女', '姪っ子'], words: ['niece'] },
  { type: 'NEPHEW', chars: ['姪子', '侄子', '外甥', '甥'], words: ['nephew'] },
  { type: 'AUNTY', chars: ['阿姨', '姑姑', '姑媽', '姑妈', '姨媽', '姨妈', '舅媽', '舅妈', '嬸嬸', '婶婶', '伯母', '叔母', 'おばさん'], words: ['aunt', 'aunty', 'auntie'] },
  { type: 'UNCLE', chars: ['叔叔', '舅舅', '伯伯', '伯父', '叔父', '姑丈', '姨丈', 'おじさん'], words: ['uncle'] },
  { type: 'PARENTS', chars: ['媽', '妈', '爸', '母親', '母亲', '父親', '父亲', 'お母さん', 'お父さん', 'ママ', 'パパ', '母', '父'], words: ['mom', 'mum', 'mommy', 'mummy', 'mama', 'mother', 'dad', 'daddy', 'papa', 'father', 'mam'] },
  { type: 'CHILDREN', chars: ['兒子', '女兒', '儿子', '女儿', '息子'], words: ['son', 'daughter'] },
  { type: 'SIBLINGS', chars: ['哥', '姐', '姊', '弟', '妹', '兄', '姉', 'お兄', 'お姉'], words: ['bro', 'sis', 'brother', 'sister', 'sibling'] },
  { type: 'MENTOR_ADVISOR', chars: ['老師', '老师', '教授', '導師', '导师', '教練', '教练', '先輩', '師父', '师父'], words: ['prof', 'professor', 'mentor', 'coach', 'teacher', 'tutor', 'advisor', 'sensei'] },
  { type: 'COLLEAGUE', chars: ['同事', '主管', '老闆', '老板', '經理', '经理', '上司', '同僚'], words: ['boss', 'manager', 'colleague', 'coworker'] },
]

// Titles that contain kin characters but are no kin: 小姐 is "Miss", 大姐/大哥 are how friends are hailed.
const NOT_KIN = ['小姐', '大姐', '大哥', '姐妹淘']

const WORK_WORDS = /\b(?:meeting|deadline|client|report|office|boss|project|presentation|slides|standup|manager|invoice|sprint|overtime)\b|開會|开会|會議|会议|報告|报告|老闆|老板|客戶|客户|加班|主管|專案|项目|簡報|简报|上班|出差|会議|打ち合わせ|締め切り|上司|残業|資料/iu
/** Work talk makes a colleague when it fills at least this share of their messages, and three at least. */
const WORK_MIN_SHARE = 0.15

function wordIn(name: string, word: string): boolean {
  return new RegExp(`(?:^|[^\\p{L}])${word.replace(/ /g, '\\s+')}(?:$|[^\\p{L}])`, 'iu').test(name)
}

/** The type a contact name points to, if any. */
export function nameCue(name: string): RelationshipType | null {
  let cleaned = name
  for (const title of NOT_KIN) cleaned = cleaned.replaceAll(title, ' ')
  for (const cue of NAME_CUES) {
    if (cue.chars?.some((c) => cleaned.includes(c)) || cue.words?.some((w) => wordIn(cleaned, w))) return cue.type
  }
  return null
}

/**
 * The proposed type of someone the user chats with: a cue in their name, else COLLEAGUE when much of what the two
 * write is about work, else CLOSE_FRIEND (people imported from the chats one talks to most, spec §2).
 */
export function proposeRelationshipType(name: string, texts: string[]): RelationshipType {
  const fromName = nameCue(name)
  if (fromName) return fromName
  const work = texts.filter((t) => WORK_WORDS.test(t)).length
  if (work >= 3 && work / texts.length >= WORK_MIN_SHARE) return 'COLLEAGUE'
  return 'CLOSE_FRIEND'
}
