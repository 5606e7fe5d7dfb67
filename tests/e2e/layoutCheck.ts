// Layout assertions for a page as it is shown: nothing wider than the screen, every visible control inside the
// screen and not covered by anything else, one-line titles, and no serious or critical axe finding.
import { expect, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'

export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'desktop', width: 1280, height: 800 },
] as const

export interface LayoutProblem {
  what: string
  where: string
}

/** Problems of the page as laid out now (empty when it is right). */
export async function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const problems: { what: string; where: string }[] = []
    const name = (el: Element) => {
      const label = el.getAttribute('aria-label') || (el as HTMLElement).innerText?.trim().slice(0, 40) || el.getAttribute('name') || ''
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${label}"`
    }
    const width = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > width + 1) problems.push({ what: 'page wider than the screen', where: `${document.documentElement.scrollWidth} > ${width}` })

    const visible = (el: Element) => {
      const style = getComputedStyle(el)
      const box = el.getBoundingClientRect()
      return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0.05 && box.width > 1 && box.height > 1
    }
    // A control is clipped when an ancestor that hides overflow cuts part of it away.
    const clippedBy = (el: Element) => {
      const box = el.getBoundingClientRect()
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p)
        if (!/(hidden|clip|auto|scroll)/.test(style.overflowX + style.overflowY)) continue
        const outer = p.getBoundingClientRect()
        // Scrollable containers may hold controls out of view; only a part cut off while the rest shows counts.
        const partly = (a: number, b: number, lo: number, hi: number) => (a < lo - 1 && b > lo + 1) || (a < hi - 1 && b > hi + 1)
        if (partly(box.left, box.right, outer.left, outer.right) || partly(box.top, box.bottom, outer.top, outer.bottom)) return p
      }
      return null
    }
    // A control in a box that scrolls sideways (a wide table) is reached by scrolling that box: only the box
    // itself must fit the screen.
    const scrollsSideways = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p)
        if (/(auto|scroll)/.test(style.overflowX) && p.scrollWidth > p.clientWidth + 1) return true
      }
      return false
    }
    const controls = Array.from(document.querySelectorAll('button, a[href], input:not([type=hidden]), textarea, select, [role=button], [role=switch], [role=slider], [role=radio], [role=checkbox]'))
    for (const el of controls) {
      if (!visible(el) || el.closest('[aria-hidden=true], [inert]') || scrollsSideways(el)) continue
      const box = el.getBoundingClientRect()
      if (box.right > width + 1 || box.left < -1) problems.push({ what: 'control outside the screen', where: name(el) })
      const clip = clippedBy(el)
      if (clip) problems.push({ what: 'control clipped', where: `${name(el)} by ${name(clip)}` })
      // Covered: the middle of a control in view must be the control (or inside it) for a tap to reach it.
      const x = box.left + box.width / 2
      const y = box.top + box.height / 2
      if (x < 0 || y < 0 || x > width || y > window.innerHeight) continue
      const hit = document.elementFromPoint(x, y)
      if (hit && hit !== el && !el.contains(hit) && !hit.contains(el) && !(el as HTMLInputElement).labels?.[0]?.contains(hit))
        problems.push({ what: 'control covered', where: `${name(el)} under ${name(hit)}` })
    }
    // Titles stay on one line, whole.
    for (const title of Array.from(document.querySelectorAll('.topbar .title, .topbar h1'))) {
      if (!visible(title)) continue
      const line = parseFloat(getComputedStyle(title).lineHeight) || parseFloat(getComputedStyle(title).fontSize) * 1.3
      if (title.getBoundingClientRect().height > line * 1.5) problems.push({ what: 'title wraps', where: name(title) })
      if (title.scrollWidth > title.clientWidth + 1) problems.push({ what: 'title cut off', where: name(title) })
    }
    return problems
  })
}

/** Layout problems and serious or critical axe findings of the page, each labelled; empty when all is well. */
export async function pageFindings(page: Page, label: string): Promise<string[]> {
  const layout = (await layoutProblems(page)).map((p) => `${label}: ${p.what}: ${p.where}`)
  const { violations } = await new AxeBuilder({ page }).analyze()
  const axe = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: axe ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)
  return [...layout, ...axe]
}

export async function expectGoodLayout(page: Page, label: string) {
  expect(await pageFindings(page, label)).toEqual([])
}
