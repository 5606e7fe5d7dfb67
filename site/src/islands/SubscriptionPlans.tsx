// The plan page (spec §2 /app/settings/subscription, §4 "Subscription"): Free and Premium, subscribing through
// ECPay's payment form, cancelling with Premium kept until it expires, and the App Store page for Apple plans.
import { useState } from 'react'
import { Dialog, ConfirmDialog } from '../components/Dialog'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { useT } from '../lib/reactI18n'
import { api, apiUrl } from '../lib/api'
import { showAlert } from '../lib/alertDialog'
import { track } from '../lib/analytics'
import { DATE_FORMATS, formatInZone } from '../lib/dates'
import { currentLang } from '../lib/clientI18n'
import type { User } from '../../../api/users/users'

export interface Catalog {
  free: { messageLimit: number; period: 'day' | 'week' }
  plans: { id: 'subscriptionMonthly' | 'subscriptionYearly'; period: 'month' | 'year'; price: string }[]
  yearlySavings: { strikeThrough: string; save: string; savePercent: number }
}

// ECPay's payment page languages; Traditional Chinese is its default when none is sent.
const PAYMENT_LANGUAGE = { ENUS: 'ENG', ZHTW: 'CHI', ZHCN: 'CHI' } as const
const FORM_ID = 'ecpay-auto-submit'

function Plans({ catalog, user: initial }: { catalog: Catalog; user: User }) {
  const t = useT()
  const [user, setUser] = useState(initial)
  const [busy, setBusy] = useState<string | null>(null)
  const [confirmCancel, setConfirmCancel] = useState(false)
  const [grateful, setGrateful] = useState(false)
  const sub = user.subscription
  const subscribed = sub.type !== 'FREEMIUM'
  const expiry = sub.expiresAt ? formatInZone(sub.expiresAt, DATE_FORMATS.subscriptionExpiry) : ''
  const yearly = catalog.plans.find((p) => p.id === 'subscriptionYearly')
  const monthly = catalog.plans.find((p) => p.id === 'subscriptionMonthly')

  async function subscribe(planId: string) {
    const annual = planId === 'subscriptionYearly'
    track('Unlock Premium in app', { annual })
    track('subscription_button_click', { planId })
    setBusy(planId)
    try {
      const res = await fetch(
        apiUrl(`/payments/ecpay/subscription/${planId}`, {
          language: PAYMENT_LANGUAGE[currentLang()],
          // A path: the server puts it on PUBLIC_URL, whichever name of the machine this page was opened on.
          orderResultUrl: '/api/v1/payments/ecpay/order-result',
        }),
        { credentials: 'same-origin' },
      )
      if (!res.ok) throw new Error(await res.text())
      // The payment form must be submitted by the browser (ECPay refuses server-side posts); scripts in
      // injected HTML do not run, so the form is submitted here.
      const holder = document.createElement('div')
      holder.hidden = true
      holder.innerHTML = await res.text()
      document.body.append(holder)
      const form = holder.querySelector<HTMLFormElement>(`#${FORM_ID}`) ?? holder.querySelector('form')
      if (!form) throw new Error('no payment form')
      form.submit()
    } catch {
      setBusy(null)
      await showAlert(t('common.error'), t('subscription.subscribeFailed'))
    }
  }

  async function cancel() {
    setBusy('cancel')
    track('Unsubscribe', { provider: sub.provider })
    try {
      const next = await api<User>(`/payments/cancel-subscription/${sub.provider}`, { method: 'POST', silent: true })
      setUser({ ...next, subscription: { ...next.subscription, autoRenew: false } })
      setConfirmCancel(false)
      setGrateful(true)
    } catch {
      // The alert opens inside the still-open confirm dialog (the only place a modal's focus trap lets it be
      // reached); closing that dialog first would take the alert away with it and leave the page stuck busy.
      setBusy(null)
      await showAlert(t('common.error'), t('subscription.unsubscribeFailed'))
      setConfirmCancel(false)
    } finally {
      setBusy(null)
    }
  }

  if (subscribed && sub.provider === 'APPLE') {
    return (
      <section className="card plan apple" aria-labelledby="apple-title">
        <h1 id="apple-title">{t('subscription.appleTitle')}</h1>
        <p className="muted">{t('subscription.appleText')}</p>
        <div className="dialog-actions">
          <a className="btn btn-ghost" href="/app/settings">{t('subscription.notNow')}</a>
          <a className="btn" href="https://apps.apple.com/account/subscriptions" target="_blank" rel="noopener">{t('subscription.openApp')}</a>
        </div>
      </section>
    )
  }

  return (
    <div className="plans">
      <section className="card plan" aria-labelledby="plan-free">
        <header>
          <h2 id="plan-free">{t('subscription.free')}</h2>
          {!subscribed && <span className="badge">{t('subscription.currentPlan')}</span>}
        </header>
        <p className="price">$0</p>
        <p>{t(`subscription.freeAllowance_${catalog.free.period}`, { count: catalog.free.messageLimit })}</p>
        <p className="muted">{t(`subscription.freeResets_${catalog.free.period}`)}</p>
      </section>

      <section className="card plan premium" aria-labelledby="plan-premium">
        <header>
          <h2 id="plan-premium">{t('subscription.premium')}</h2>
          {subscribed && <span className="badge badge-premium">{t('subscription.currentPlan')}</span>}
        </header>
        <p>{t('subscription.premiumPerks')}</p>
        {subscribed ? (
          <>
            <p data-testid="premium-status">{sub.autoRenew ? t('subscription.renewsOn', { date: expiry }) : t('subscription.activeUntil', { date: expiry })}</p>
            {sub.autoRenew && sub.provider && (
              <button type="button" className="btn btn-ghost" onClick={() => setConfirmCancel(true)}>{t('subscription.cancel')}</button>
            )}
          </>
        ) : (
          <div className="options">
            {yearly && (
              <div className="option">
                <div>
                  <strong>{t('subscription.yearly')}</strong>
                  <p className="price">
                    {yearly.price}<small>{t('subscription.perYear')}</small> <s className="muted">{catalog.yearlySavings.strikeThrough}</s>
                  </p>
                  <p className="save">{t('subscription.save', { amount: catalog.yearlySavings.save, percent: catalog.yearlySavings.savePercent })}</p>
                </div>
                <button type="button" className="btn" disabled={!!busy} onClick={() => subscribe('subscriptionYearly')}>
                  {busy === 'subscriptionYearly' ? t('subscription.redirecting') : t('subscription.subscribeYearly')}
                </button>
              </div>
            )}
            {monthly && (
              <div className="option">
                <div>
                  <strong>{t('subscription.monthly')}</strong>
                  <p className="price">{monthly.price}<small>{t('subscription.perMonth')}</small></p>
                </div>
                <button type="button" className="btn btn-ghost" disabled={!!busy} onClick={() => subscribe('subscriptionMonthly')}>
                  {busy === 'subscriptionMonthly' ? t('subscription.redirecting') : t('subscription.subscribeMonthly')}
                </button>
              </div>
            )}
            <p className="muted small">{t('subscription.autoRenews')}</p>
          </div>
        )}
      </section>

      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title={t('subscription.cancelTitle')}
        description={t('subscription.cancelText')}
        confirmText={t('subscription.confirmCancel')}
        cancelText={t('subscription.keep')}
        onConfirm={cancel}
        busy={busy === 'cancel'}
        danger
      />
      <Dialog
        open={grateful}
        onOpenChange={setGrateful}
        title={t('subscription.gratefulTitle')}
        description={t('subscription.gratefulText', { date: expiry })}
        actions={<button type="button" className="btn" onClick={() => setGrateful(false)}>{t('subscription.ok')}</button>}
      />
    </div>
  )
}

export default function SubscriptionPlans(props: { catalog: Catalog; user: User }) {
  return (
    <ErrorBoundary>
      <Plans {...props} />
    </ErrorBoundary>
  )
}
