// The three small PNG chunk packages ship no types.
declare module 'png-chunks-extract' {
  export default function extractChunks(data: Uint8Array): { name: string; data: Uint8Array }[]
}
declare module 'png-chunks-encode' {
  export default function encodeChunks(chunks: { name: string; data: Uint8Array }[]): Uint8Array
}
declare module 'png-chunk-text' {
  const text: {
    encode(keyword: string, content: string): { name: string; data: Uint8Array }
    decode(data: Uint8Array): { keyword: string; text: string }
  }
  export default text
}
