// Account-level operations on the signed-in user, as plain functions over values.
import type { Sql } from '../db/database'
import type { FileStorage } from '../files/storage'

/** Deletes the user and, through ON DELETE CASCADE, every row that belongs to them; then their files. */
export async function deleteAccount(sql: Sql, storage: FileStorage, userId: string) {
  const keys = await sql.begin(async (tx) => {
    const files = await tx<{ storage_key: string }[]>`select storage_key from files where user_id = ${userId}`
    await tx`delete from users where id = ${userId}`
    return files.map((f) => f.storage_key)
  })
  // Disk removal after commit: a failed commit must not lose files that still have rows.
  await Promise.all(keys.map((k) => storage.remove(k)))
}
