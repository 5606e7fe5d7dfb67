// Password rules of spec §5 and hashing with Bun.password (argon2id).

const SPECIAL = /[!@#$%^&*(),.?":{}|<>\[\]\\/'`~_+=;\-]/

/** Returns the first rule the password breaks, or null when it is strong. */
export function passwordProblem(pw: string): string | null {
  if (pw.length < 8) return 'Password must be at least 8 characters'
  if (pw.length > 256) return 'Password must be at most 256 characters'
  if (!/[a-z]/.test(pw)) return 'Password must contain a lower-case letter'
  if (!/[A-Z]/.test(pw)) return 'Password must contain an upper-case letter'
  if (!/[0-9]/.test(pw)) return 'Password must contain a number'
  if (!SPECIAL.test(pw)) return 'Password must contain a special character'
  return null
}

export const hashPassword = (pw: string) => Bun.password.hash(pw, { algorithm: 'argon2id' })

export async function verifyPassword(pw: string, hash: string | null): Promise<boolean> {
  if (!hash || !pw) return false
  try {
    return await Bun.password.verify(pw, hash)
  } catch {
    return false
  }
}
