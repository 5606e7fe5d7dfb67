// An image of a chat message. A message just sent carries the local preview of each picked image: it shows at
// once, and gives way to the stored file only when that file has loaded, so the picture never blinks or breaks.
import { useEffect, useState } from 'react'
import type { ChatFile } from './types'

/** Served addresses this page has loaded once: a bubble drawn again shows them directly. */
const served = new Set<string>()

export function ChatImage({ file }: { file: ChatFile }) {
  const local = file.preview && file.preview !== file.url && !served.has(file.url) ? file.preview : null
  const [src, setSrc] = useState(local ?? file.url)
  useEffect(() => {
    if (!local) {
      setSrc(file.url)
      return
    }
    const img = new Image()
    img.onload = () => {
      served.add(file.url)
      setSrc(file.url)
      // The preview is no longer shown anywhere once the stored file is in place.
      URL.revokeObjectURL(local)
    }
    img.src = file.url
    return () => {
      img.onload = null
    }
  }, [file.url, local])
  return <img src={src} alt="" loading={local ? 'eager' : 'lazy'} width={120} height={120} />
}
