// Dev Tools dialog of the top bar, for ADMIN and DEVELOPER (spec §2, §5, §8).
import { useEffect, useState } from 'react'
import * as Slider from '@radix-ui/react-slider'
import { toast } from '../lib/toast'
import { Dialog, ConfirmDialog } from '../components/Dialog'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { Icon } from '../components/Icon'
import { useT } from '../lib/reactI18n'
import { api, ApiError } from '../lib/api'
import { TYPING_OVERRIDE_DEFAULT, setTypingOverride, typingOverride } from '../lib/typingSpeed'
import type { User } from '../../../api/users/users'

const DEFAULT_COUNT = 10
const DEFAULT_LIMIT = 100
const clamp = (n: number) => Math.min(1000, Math.max(0, Math.round(n)))
const toLocalInput = (iso: string | null) => (iso ? new Date(new Date(iso).getTime() - new Date().getTimezoneOffset() * 60000).toISOString().slice(0, 16) : '')
const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : null)
const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e))

/** Only the fields whose value differs from what the server holds (spec §4 "Dev tools edits"). */
export function changedFields<T extends Record<string, unknown>>(next: T, current: Partial<T>): Partial<T> {
  const out: Partial<T> = {}
  for (const k of Object.keys(next) as (keyof T)[]) if (next[k] !== current[k]) out[k] = next[k]
  return out
}

function Tools({ user: initial }: { user: User }) {
  const t = useT()
  const [open, setOpen] = useState(false)
  const [user, setUser] = useState(initial)
  const [count, setCount] = useState(initial.messageLimit?.count ?? DEFAULT_COUNT)
  const [limit, setLimit] = useState(initial.messageLimit?.limit ?? DEFAULT_LIMIT)
  const [resetAt, setResetAt] = useState(toLocalInput(initial.messageLimit?.resetAt ?? null))
  const [subType, setSubType] = useState(initial.subscription.type)
  const [autoRenew, setAutoRenew] = useState(initial.subscription.autoRenew)
  const [expiresAt, setExpiresAt] = useState(toLocalInput(initial.subscription.expiresAt))
  const [provider, setProvider] = useState<string>(initial.subscription.provider ?? '')
  const [speed, setSpeed] = useState(TYPING_OVERRIDE_DEFAULT)
  useEffect(() => setSpeed(typingOverride() ?? TYPING_OVERRIDE_DEFAULT), [])
  const [confirmRebuild, setConfirmRebuild] = useState(false)
  const [busy, setBusy] = useState(false)

  async function saveLimit() {
    const body = changedFields(
      { count, limit, resetAt: fromLocalInput(resetAt) },
      { count: user.messageLimit.count, limit: user.messageLimit.limit, resetAt: fromLocalInput(toLocalInput(user.messageLimit.resetAt)) },
    )
    if (!Object.keys(body).length) return
    try {
      setUser(await api<User>('/self/message-limit', { method: 'PATCH', body, silent: true }))
      toast.success(t('devtools.saved'))
    } catch (e) {
      toast.error(t('devtools.messageLimitFailed', { message: messageOf(e) }))
    }
  }

  async function saveSubscription() {
    const body = changedFields(
      { type: subType, autoRenew, expiresAt: fromLocalInput(expiresAt), provider: provider || null },
      {
        type: user.subscription.type,
        autoRenew: user.subscription.autoRenew,
        expiresAt: fromLocalInput(toLocalInput(user.subscription.expiresAt)),
        provider: user.subscription.provider,
      },
    )
    if (!Object.keys(body).length) return
    try {
      setUser(await api<User>('/self/subscription', { method: 'PATCH', body, silent: true }))
      toast.success(t('devtools.saved'))
    } catch (e) {
      toast.error(t('devtools.subscriptionFailed', { message: messageOf(e) }))
    }
  }

  async function askRebuild() {
    try {
      const characters = await api<unknown[]>('/chatbots/characters', { silent: true })
      if (!characters.length) {
        toast.error(t('devtools.noCharacters'))
        return
      }
      setConfirmRebuild(true)
    } catch (e) {
      toast.error(t('devtools.rebuildFailed', { message: messageOf(e) }))
    }
  }

  async function rebuild() {
    setBusy(true)
    try {
      await api('/chatbots/characters/rebuild', { method: 'POST', silent: true })
      toast.success(t('devtools.rebuildStarted'))
      setConfirmRebuild(false)
    } catch (e) {
      toast.error(t('devtools.rebuildFailed', { message: messageOf(e) }))
    } finally {
      setBusy(false)
    }
  }

  async function remove(path: string, ok: string, failed: string) {
    try {
      await api(path, { method: 'DELETE', silent: true })
      toast.success(t(ok))
    } catch (e) {
      toast.error(t(failed, { message: messageOf(e) }))
    }
  }

  const numberInput = (id: string, label: string, value: number, set: (n: number) => void) => (
    <label className="field" htmlFor={id}>
      <span>{label}</span>
      <input id={id} type="number" min={0} max={1000} step={1} value={value} onChange={(e) => set(clamp(Number(e.target.value)))} />
    </label>
  )

  return (
    <>
      <button type="button" className="icon-btn" aria-label={t('devtools.open')} onClick={() => setOpen(true)} data-testid="dev-tools">
        <Icon name="wrench" />
      </button>
      <Dialog open={open} onOpenChange={setOpen} title={t('devtools.title')} wide>
        <section aria-labelledby="dt-limit">
          <h2 id="dt-limit">{t('devtools.messageLimit')}</h2>
          <div className="grid2">
            {numberInput('dt-count', t('devtools.count'), count, setCount)}
            {numberInput('dt-limitv', t('devtools.limit'), limit, setLimit)}
          </div>
          <label className="field" htmlFor="dt-reset">
            <span>{t('devtools.resetAt')}</span>
            <input id="dt-reset" type="datetime-local" value={resetAt} onChange={(e) => setResetAt(e.target.value)} />
          </label>
          <button type="button" className="btn btn-ghost" onClick={saveLimit}>{t('devtools.saveMessageLimit')}</button>
        </section>

        <section aria-labelledby="dt-sub">
          <h2 id="dt-sub">{t('devtools.subscription')}</h2>
          <div className="grid2">
            <label className="field" htmlFor="dt-type">
              <span>{t('devtools.type')}</span>
              <select id="dt-type" value={subType} onChange={(e) => setSubType(e.target.value as User['subscription']['type'])}>
                <option value="FREEMIUM">FREEMIUM</option>
                <option value="PREMIUM">PREMIUM</option>
              </select>
            </label>
            <label className="field" htmlFor="dt-provider">
              <span>{t('devtools.provider')}</span>
              <select id="dt-provider" value={provider} onChange={(e) => setProvider(e.target.value)}>
                <option value="">{t('devtools.none')}</option>
                <option value="APPLE">APPLE</option>
                <option value="STRIPE">STRIPE</option>
                <option value="ECPAY">ECPAY</option>
              </select>
            </label>
          </div>
          <label className="field" htmlFor="dt-expires">
            <span>{t('devtools.expiresAt')}</span>
            <input id="dt-expires" type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
          </label>
          <label className="check">
            <input type="checkbox" checked={autoRenew} onChange={(e) => setAutoRenew(e.target.checked)} /> {t('devtools.autoRenew')}
          </label>
          <button type="button" className="btn btn-ghost" onClick={saveSubscription}>{t('devtools.saveSubscription')}</button>
        </section>

        <section aria-labelledby="dt-speed">
          <h2 id="dt-speed">{t('devtools.typingSpeed')}</h2>
          <div className="slider-row">
            <Slider.Root
              className="slider"
              min={20}
              max={200}
              step={1}
              value={[speed]}
              onValueChange={([v]) => {
                setSpeed(v)
                setTypingOverride(v)
              }}
            >
              <Slider.Track className="slider-track"><Slider.Range className="slider-range" /></Slider.Track>
              <Slider.Thumb className="slider-thumb" aria-label={t('devtools.typingSpeed')} />
            </Slider.Root>
            <output aria-live="polite">{speed} ms</output>
          </div>
        </section>

        <section className="dt-actions">
          <button type="button" className="btn btn-ghost" onClick={askRebuild}>{t('devtools.rebuild')}</button>
          <button type="button" className="btn btn-ghost" onClick={() => remove('/chatbots/training-data', 'devtools.trainingDataDeleted', 'devtools.trainingDataFailed')}>{t('devtools.deleteTrainingData')}</button>
          <button type="button" className="btn btn-ghost" onClick={() => remove('/self/onboarding', 'devtools.onboardingDataDeleted', 'devtools.onboardingDataFailed')}>{t('devtools.deleteOnboardingData')}</button>
        </section>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => setOpen(false)}>{t('common.close')}</button>
        </div>
      </Dialog>
      <ConfirmDialog
        open={confirmRebuild}
        onOpenChange={setConfirmRebuild}
        title={t('devtools.rebuildConfirm')}
        description={t('devtools.rebuildWarning')}
        confirmText={t('common.confirm')}
        cancelText={t('common.cancel')}
        onConfirm={rebuild}
        danger
        busy={busy}
      />
    </>
  )
}

export default function DevTools(props: { user: User }) {
  return (
    <ErrorBoundary>
      <Tools {...props} />
    </ErrorBoundary>
  )
}
