// The strong-password rules of spec §5, each checked on its own so forms can show them live.
// The special characters are the set the server accepts (api/auth/passwords.ts), a superset of the spec's.
const SPECIAL = /[!@#$%^&*(),.?":{}|<>\[\]\\/'`~_+=;\-]/

export const PASSWORD_RULES = [
  { key: 'minLength', test: (pw: string) => pw.length >= 8 },
  { key: 'lower', test: (pw: string) => /[a-z]/.test(pw) },
  { key: 'upper', test: (pw: string) => /[A-Z]/.test(pw) },
  { key: 'number', test: (pw: string) => /[0-9]/.test(pw) },
  { key: 'special', test: (pw: string) => SPECIAL.test(pw) },
] as const

export const isStrongPassword = (pw: string) => pw.length <= 256 && PASSWORD_RULES.every((r) => r.test(pw))
