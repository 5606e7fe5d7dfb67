// The user's name in one imported chat, which may differ from the name they chose. Pure.

/** Lower-case words of letters and digits: "Dana W." gives ["dana", "w"], "陳小美" gives ["陳小美"]. */
const wordsOf = (name: string) =>
  name.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '')

const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u

/** One name is the other with words left out ("Dana" / "Dana W."), or a CJK given name without the family name ("小美" / "陳小美"). */
function isShortFor(short: string[], long: string[]): boolean {
  if (short.length === 0 || short.length > long.length) return false
  if (short.every((word) => long.includes(word))) return true
  const [a, b] = [short.join(''), long.join('')]
  return short.length === 1 && long.length === 1 && CJK.test(b) && a.length >= 2 && a.length < b.length && b.endsWith(a)
}

/**
 * Whether two names are one person's: the same words (case, width and punctuation aside: "dana w" / "Dana W."), or
 * one a shorter form of the other ("Dana" / "Dana Whitfield", "小美" / "陳小美").
 */
export function isSameName(a: string, b: string): boolean {
  const [x, y] = [wordsOf(a), wordsOf(b)]
  if (x.length === 0 || y.length === 0) return a === b
  return x.join(' ') === y.join(' ') || isShortFor(x, y) || isShortFor(y, x)
}

/** Whether two names are written the same but for case, width and punctuation. */
export function isSameWords(a: string, b: string): boolean {
  const [x, y] = [wordsOf(a), wordsOf(b)]
  return x.length > 0 ? x.join(' ') === y.join(' ') : a === b
}

/**
 * The user's name in one chat. The user picks one name for all files, but may be called
 * something else in a chat from the other app ("Dana" on LINE, "Dana Whitfield" on WhatsApp):
 * in a chat without the chosen name, the one author whose name is a longer or shorter form of
 * it is taken for the user rather than listed as a person. With no such author, or several,
 * the chosen name stands.
 */
export function userNameIn(authors: string[], userName: string): string {
  if (authors.includes(userName)) return userName
  const chosen = wordsOf(userName)
  const aliases = authors.filter((author) => {
    const words = wordsOf(author)
    return isShortFor(chosen, words) || isShortFor(words, chosen)
  })
  return aliases.length === 1 ? aliases[0] : userName
}
