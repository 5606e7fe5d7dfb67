// Writes site/public/audio/ideal-self-ambient.opus: a soft, slowly breathing chord pad, generated here so the
// product ships a background track of its own (no licensing), compressed with Opus (about 110 KB for the 24 s
// loop, where the raw samples take 768 KB). Needs opusenc (Debian: apt-get install opus-tools).
// Run: npx bun scripts/makeAmbientTrack.ts
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { spawnSync } from 'node:child_process'

/** A pad has no transients: 32 kbit/s keeps it clean and the file well under 150 KB. */
const BITRATE_KBPS = 32

const RATE = 16_000
const SECONDS = 24 // loops seamlessly: every partial completes whole cycles in this length
const samples = RATE * SECONDS
// A gentle Cmaj9-ish voicing; frequencies rounded so each fits a whole number of cycles in the loop.
const partials = [130.75, 196, 246.95, 293.66, 329.63].map((f) => Math.round(f * SECONDS) / SECONDS)
const pcm = new Int16Array(samples)
for (let i = 0; i < samples; i++) {
  const t = i / RATE
  let v = 0
  partials.forEach((f, k) => {
    // Each voice swells on its own slow cycle (1, 2 or 3 per loop), so the pad breathes without a seam.
    const swell = 0.55 + 0.45 * Math.sin((2 * Math.PI * (1 + (k % 3)) * t) / SECONDS + k)
    v += swell * Math.sin(2 * Math.PI * f * t) * (k === 0 ? 0.5 : 0.28)
  })
  pcm[i] = Math.round((v / 2.2) * 0.35 * 32767)
}
const header = Buffer.alloc(44)
header.write('RIFF', 0)
header.writeUInt32LE(36 + pcm.byteLength, 4)
header.write('WAVEfmt ', 8)
header.writeUInt32LE(16, 16)
header.writeUInt16LE(1, 20)
header.writeUInt16LE(1, 22)
header.writeUInt32LE(RATE, 24)
header.writeUInt32LE(RATE * 2, 28)
header.writeUInt16LE(2, 32)
header.writeUInt16LE(16, 34)
header.write('data', 36)
header.writeUInt32LE(pcm.byteLength, 40)
const work = mkdtempSync(join(tmpdir(), 'ambient-'))
const wav = join(work, 'ambient.wav')
writeFileSync(wav, Buffer.concat([header, Buffer.from(pcm.buffer)]))
const out = new URL('../site/public/audio/ideal-self-ambient.opus', import.meta.url).pathname
mkdirSync(dirname(out), { recursive: true })
const encoded = spawnSync('opusenc', ['--quiet', '--music', '--bitrate', String(BITRATE_KBPS), wav, out], { stdio: 'inherit' })
rmSync(work, { recursive: true, force: true })
if (encoded.error || encoded.status !== 0) throw new Error('opusenc failed; install it with: apt-get install opus-tools')
