// Image uploads: checked by content, size-limited, stored under a random key, owned by one user.
import type { AppContext } from '../context'
import { badRequest } from '../http/errors'
import { sniffImageType } from './imageType'

export interface UploadedFile {
  id: string
  url: string
  type: string
}

export const fileUrl = (id: string) => `/api/v1/files/${id}`

export async function saveUpload(ctx: AppContext, userId: string, file: File): Promise<UploadedFile> {
  if (file.size === 0) throw badRequest('The file is empty')
  if (file.size > ctx.cfg.uploadMaxBytes)
    throw badRequest(`The file is larger than ${Math.floor(ctx.cfg.uploadMaxBytes / 1024 / 1024)} MB`)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const type = sniffImageType(bytes)
  if (!type) throw badRequest('Only images can be uploaded (PNG, JPEG, GIF or WebP)')
  const id = crypto.randomUUID()
  const key = `${userId}/${id}`
  await ctx.storage.put(key, bytes)
  try {
    await ctx.sql`insert into files (id, user_id, storage_key, mime_type, size_bytes, original_name)
                  values (${id}, ${userId}, ${key}, ${type}, ${bytes.length}, ${file.name?.slice(0, 255) || null})`
  } catch (e) {
    await ctx.storage.remove(key)
    throw e
  }
  return { id, url: fileUrl(id), type }
}
