// A rough guess of which of the product's languages (spec: ENUS, ZHTW, ZHCN) a text is written in, for replies
// composed without a model. Good enough for a sentence of chat; not a general language detector.

export type Language = 'en-US' | 'zh-TW' | 'zh-CN'

// Common characters whose Traditional and Simplified forms differ, aligned pair by pair. Forms that are also
// ordinary words in the other script (后, 里, 干, 于 …) are left out so they cannot tip the count.
const TRADITIONAL = '們這個來說時會為對過還麼點發學現經開關問題愛覺讓謝嗎聽見書東國無樣應從頭長門間請電體話寫讀買賣錢親媽歡記認識準備幫難邊實當總氣習慣變與區產業務進運動標網給沒車歲樂飯辦處該誰兒壓雖員單顧獨號態種結錯較張將專轉條萬傷歷鐘決計設論證議調視隊陽聯醫藥飛機線紅綠質費貴負責煩惱憂慮懷戀誤聲舊歸華參觀權戰爭殺錄腦臉擔'
const SIMPLIFIED = '们这个来说时会为对过还么点发学现经开关问题爱觉让谢吗听见书东国无样应从头长门间请电体话写读买卖钱亲妈欢记认识准备帮难边实当总气习惯变与区产业务进运动标网给没车岁乐饭办处该谁儿压虽员单顾独号态种结错较张将专转条万伤历钟决计设论证议调视队阳联医药飞机线红绿质费贵负责烦恼忧虑怀恋误声旧归华参观权战争杀录脑脸担'

const HAN = /\p{Script=Han}/gu
const LATIN_WORD = /\p{Script=Latin}+/gu
const KANA_OR_HANGUL = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/**
 * The language to answer `text` in. Chinese that uses no distinguishing character follows `fallback` when that
 * is Chinese, else Traditional (the product's default story language); text without letters follows `fallback`;
 * everything else, including other languages, gets English.
 */
export function replyLanguage(text: string, fallback?: Language): Language {
  if (!/\p{L}/u.test(text)) return fallback ?? 'en-US'
  // A Chinese sentence may carry an English word and an English one a Chinese name; the bulk decides.
  const han = text.match(HAN)?.length ?? 0
  if (KANA_OR_HANGUL.test(text) || han === 0 || han < (text.match(LATIN_WORD)?.length ?? 0)) return 'en-US'
  let traditional = 0
  let simplified = 0
  for (const char of text) {
    if (TRADITIONAL.includes(char)) traditional++
    else if (SIMPLIFIED.includes(char)) simplified++
  }
  if (traditional !== simplified) return traditional > simplified ? 'zh-TW' : 'zh-CN'
  return fallback === 'zh-CN' ? 'zh-CN' : 'zh-TW'
}
