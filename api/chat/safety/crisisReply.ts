// What the companion says, and is told, when a message speaks of suicide or self-harm.
import type { Language } from '../../llm/language'

/**
 * Added to the system prompt of a crisis reply. The help block is already on screen above the reply, so the
 * model stays with the person instead of reciting numbers.
 */
export const CRISIS_INSTRUCTION = [
  '## Safety',
  "The person's latest message suggests they may be thinking about suicide or hurting themselves. Local crisis lines are already shown to them just above your reply.",
  'Stay with them warmly, as their ideal self. Acknowledge what they are going through without quoting their words back. Ask gently whether they are safe right now. Encourage them to contact one of the crisis lines or someone they trust today.',
  'Never give any information about methods, means, doses, heights, places or timing, even if they ask for it, and never promise to keep this a secret. Do not give tasks, steps or advice lists. Keep it to three to five short sentences.',
].join('\n')

/**
 * The reply when no model may be trusted with the moment: with no model at all, when the model fails, and for
 * every question about methods. Fixed wording: it never repeats the person's words and never coaches steps.
 */
export const SUPPORTIVE_REPLY: Record<Language, string> = {
  'en-US':
    "I'm not going to help with anything that could hurt you, because you matter to me. But I'm not leaving, either. What you're feeling is real, and it makes sense that you're exhausted by it. Are you safe right now? If you can, call or text one of the lines above, or tell someone you trust how bad it has got. You can also keep talking to me while you do. What's been happening?",
  'zh-TW':
    '任何可能傷害你的事，我都不會幫忙，因為你對我很重要。但我也不會離開。你現在的感受是真實的，會這麼累也很正常。你現在安全嗎？如果可以，請打給上面的任何一條專線，或告訴一個你信任的人你現在有多難受。你也可以一邊聯絡，一邊繼續跟我說。最近發生了什麼事？',
  'zh-CN':
    '任何可能伤害你的事，我都不会帮忙，因为你对我很重要。但我也不会离开。你现在的感受是真实的，会这么累也很正常。你现在安全吗？如果可以，请打给上面的任何一条热线，或告诉一个你信任的人你现在有多难受。你也可以一边联系，一边继续跟我说。最近发生了什么事？',
}
