export interface ChatFile {
  id: string
  mimeType: string
  url: string
  /** Client-side: the local preview of an image the person just sent, shown until the stored file has loaded. */
  preview?: string
}

export interface ReplySources {
  memories: { id: string; label: string; kind: string }[]
  people: { id: string; name: string; types: string[] }[]
}

export interface ChatMessage {
  id: string
  role: 'USER' | 'ASSISTANT'
  text: string
  createdAt: string
  files: ChatFile[]
  /** A crisis reply's help block: warm words and local lines, which its text starts with. */
  help?: string | null
  /** A reply's memories and people (what went into its prompt). */
  sources?: ReplySources | null
  /** A reply's version: 1, and one more each time it is regenerated. */
  version?: number
  /** Client-side state: a local id not yet replaced by the server's, or a reply still being written. */
  pending?: boolean
}

export interface Allowance {
  limit: number
  count: number
  resetAt: string
}
