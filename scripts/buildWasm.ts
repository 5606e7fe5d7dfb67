/**
 * Assembles the WebAssembly text sources of the API into the binaries committed beside them:
 *
 *   npm run build:wasm            # writes every <name>.wasm next to its <name>.wat
 *
 * tests/unit/textIndex.test.ts checks the committed binaries are these builds.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import wabtInit from 'wabt'

export const WASM_SOURCES = [fileURLToPath(new URL('../api/chat-import/textIndex.wat', import.meta.url))]

export async function assemble(watPath: string): Promise<Uint8Array> {
  const wabt = await wabtInit()
  const module = wabt.parseWat(basename(watPath), readFileSync(watPath, 'utf8'))
  try {
    module.validate()
    return module.toBinary({}).buffer
  } finally {
    module.destroy()
  }
}

if (import.meta.main) {
  for (const source of WASM_SOURCES) {
    const target = source.replace(/\.wat$/, '.wasm')
    const bytes = await assemble(source)
    writeFileSync(target, bytes)
    console.log(`${target}: ${bytes.length} bytes`)
  }
}
