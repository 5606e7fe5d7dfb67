// The strong-password rules of spec §5, ticked off live while a password is typed.
import { PASSWORD_RULES } from '../../lib/admin/passwordRules'
import { useT } from '../../lib/reactI18n'
import { AdminIcon } from './AdminIcon'

export function PasswordRules({ id, password }: { id: string; password: string }) {
  const t = useT()
  return (
    <ul id={id} className="password-rules" aria-label={t('admin.password.rulesLabel')}>
      {PASSWORD_RULES.map((rule) => {
        const ok = rule.test(password)
        return (
          <li key={rule.key} data-ok={ok} data-rule={rule.key}>
            <span className="mark" aria-hidden="true">{ok && <AdminIcon name="check" size={16} />}</span>
            <span>{t(`admin.password.rules.${rule.key}`)}</span>
            <span className="sr-only">{ok ? t('admin.password.met') : t('admin.password.notMet')}</span>
          </li>
        )
      })}
    </ul>
  )
}
