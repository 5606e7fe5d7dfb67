/**
 * Old Windows LINE exports separate TIME, NAME and TEXT with single spaces, so "12:00 foo bar hello"
 * could be foo saying "bar hello" or foo bar saying "hello". The parser splits at the first space;
 * this pass learns the names the file itself shows and splits again at the longest one a record
 * starts with:
 *   - the title, "[LINE] Chat history with foo bar" (and its zh, ja and th forms);
 *   - records whose text is a fixed token, so the name is all before it: "12:00 foo bar [Sticker]",
 *     "12:00 foo bar ☎ Missed call";
 *   - membership and unsent notices, "12:00 foo bar joined the group.", which are then system lines
 *     as in the tab-separated form.
 * Pure; only ever called for space-separated records, so tab files pay nothing.
 */
import type { ChatMessage } from './types'

const TITLE_NAME = [
  /^\s*Chat history with (.+?)\s*$/,
  /^\s*與(.+)的聊天記錄\s*$/,
  /^\s*与(.+)的聊天记录\s*$/,
  /^\s*(.+)とのトーク履歴\s*$/,
  /^\s*ประวัติการ(?:แชท|สนทนา)กับ\s*(.+?)\s*$/,
]

/** Notices naming one or two people; the names are the capture groups. */
const NOTICES = [
  /^(.+?) (?:joined|left) the group\.?$/,
  /^(.+?) unsent a message\.?$/,
  /^(.+?) added (.+?) to the group\.?$/,
  /^(.+?) removed (.+?) from the group\.?$/,
  /^(.+?) changed the group (?:name|photo)\b.*$/,
  /^(.+?)(?:已加入群組|已退出群組|已收回訊息|已加入该群|已退出该群|加入了群聊|退出了群聊|撤回了一条消息)。?$/,
  /^(.+?)が(?:グループに参加しました|グループを退会しました|退会しました|メッセージの送信を取り消しました)$/,
]

/** Texts that are the whole of a record, so whatever comes before them is the name. */
const TOKENS = new Set([
  'Stickers', 'Photos', 'Videos', 'Files', '[Sticker]', '[Photo]', '[Video]', '[File]', '[Voice message]', '[Location]',
  '[Contact]', '[Album]', '[Notes]', '[Gift]', '[貼圖]', '[照片]', '[影片]', '[檔案]', '[語音訊息]', '[位置]', '[聯絡資訊]',
  '[記事本]', '[禮物]', '[贴图]', '[视频]', '[文件]', '[语音信息]', '[记事本]', '[スタンプ]', '[写真]', '[動画]',
  '[ファイル]', '[ボイスメッセージ]', '[位置情報]', '[連絡先]', '[ノート]', '[プレゼント]', '[アルバム]',
])
const CALL = ' ☎'

/** The person a one-to-one export's title names, or null. */
export function titleName(title: string): string | null {
  for (const pattern of TITLE_NAME) {
    const match = pattern.exec(title)
    if (match) return match[1]
  }
  return null
}

/** What a space-separated record said before it was split: name, space, text ("" name: just the text). */
const wholeOf = (m: ChatMessage) => (m.author === '' ? m.text : m.text === '' ? m.author : `${m.author} ${m.text}`)

const firstLineOf = (text: string) => {
  const end = text.indexOf('\n')
  return end < 0 ? text : text.slice(0, end)
}

function noticeNames(line: string): string[] | null {
  for (const pattern of NOTICES) {
    const match = pattern.exec(line)
    if (match) return match.slice(1).filter((name) => name !== undefined)
  }
  return null
}

function tokenName(line: string): string | null {
  const call = line.indexOf(CALL)
  if (call > 0) return line.slice(0, call)
  const space = line.lastIndexOf(' ')
  return space > 0 && TOKENS.has(line.slice(space + 1)) ? line.slice(0, space) : null
}

/**
 * Splits the records at `spaced` (indices into `messages`, in place) at the longest name the file
 * shows, and turns notices into system lines. Returns the speakers and counts again.
 */
export function resolveSpacedNames(
  messages: ChatMessage[],
  spaced: number[],
  title: string | null,
): { speakers: string[]; messageCount: number; systemCount: number } {
  const known = new Set<string>()
  if (title) known.add(title)
  for (const i of spaced) {
    const line = firstLineOf(wholeOf(messages[i]))
    const names = noticeNames(line)
    if (names) {
      for (const name of names) known.add(name)
      messages[i] = { ...messages[i], author: '', text: wholeOf(messages[i]), kind: 'system' }
      continue
    }
    if (messages[i].kind !== 'message') continue
    const name = tokenName(line)
    if (name) known.add(name)
  }
  // Longest first, so "foo bar" wins over "foo".
  const names = [...known].filter((name) => name.trim() !== '').sort((a, b) => b.length - a.length)
  for (const i of spaced) {
    const message = messages[i]
    if (message.kind !== 'message') continue
    const whole = wholeOf(message)
    const name = names.find((n) => whole.startsWith(n) && (whole.length === n.length || whole[n.length] === ' ' || whole[n.length] === '\n'))
    if (name && name !== message.author) messages[i] = { ...message, author: name, text: whole.slice(name.length + 1) }
  }
  const speakers: string[] = []
  const seen = new Set<string>()
  let messageCount = 0
  for (const m of messages) {
    if (m.kind !== 'message') continue
    messageCount++
    if (!seen.has(m.author)) {
      seen.add(m.author)
      speakers.push(m.author)
    }
  }
  return { speakers, messageCount, systemCount: messages.length - messageCount }
}
