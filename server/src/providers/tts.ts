/**
 * Text to speech with a local engine: espeak-ng (Debian package espeak-ng), Mandarin (voice cmn) and
 * English (voice en-us). The text goes in on stdin (never on the command line), the WAV comes out on
 * stdout; espeak-ng streams it, so its RIFF and data sizes are placeholders, written right here.
 * Bounded: 10 s and 8 MB of audio at most. TTS_ENGINE=off switches it off; unset, it is used when
 * `espeak-ng --version` runs.
 */
import { spawn, spawnSync } from 'node:child_process'
import { ProviderUnavailableError } from './errors'

export interface TtsEngine {
  readonly name: string
  /** A WAV file of the text spoken in `lang`. */
  speak (text: string, lang: 'zh' | 'en'): Promise<Buffer>
}

const VOICES = { zh: 'cmn', en: 'en-us' } as const
const MAX_BYTES = 8 * 1024 * 1024
const TIMEOUT_MS = 10_000

/** A WAV's RIFF and data chunk sizes set from its real length (a streamed WAV leaves them unknown). */
export function fixWavSizes (wav: Buffer): Buffer {
  if (wav.length < 44 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') return wav
  const out = Buffer.from(wav)
  out.writeUInt32LE(out.length - 8, 4)
  // walk the chunks to "data"
  let i = 12
  while (i + 8 <= out.length) {
    const id = out.toString('ascii', i, i + 4)
    if (id === 'data') { out.writeUInt32LE(out.length - i - 8, i + 4); break }
    i += 8 + out.readUInt32LE(i + 4)
  }
  return out
}

/** The length of a PCM WAV in milliseconds (0 when it cannot be read). */
export function wavDurationMs (wav: Buffer): number {
  if (wav.length < 44 || wav.toString('ascii', 12, 16) !== 'fmt ') return 0
  const byteRate = wav.readUInt32LE(28)
  return byteRate ? Math.round(((wav.length - 44) / byteRate) * 1000) : 0
}

export class EspeakEngine implements TtsEngine {
  readonly name = 'espeak-ng'
  constructor (private readonly command = 'espeak-ng') {}

  /** Whether the engine is installed (runs `espeak-ng --version`). */
  static available (command = 'espeak-ng'): boolean {
    try {
      return spawnSync(command, ['--version'], { timeout: 5000, stdio: 'ignore' }).status === 0
    } catch {
      return false
    }
  }

  speak (text: string, lang: 'zh' | 'en'): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, ['-v', VOICES[lang], '-s', '150', '--stdout', '--stdin'], { stdio: ['pipe', 'pipe', 'ignore'] })
      const chunks: Buffer[] = []
      let size = 0
      const fail = (why: string) => { child.kill('SIGKILL'); reject(new ProviderUnavailableError('tts', why)) }
      const timer = setTimeout(() => fail('the engine took too long'), TIMEOUT_MS)
      child.stdout.on('data', (c: Buffer) => {
        size += c.length
        if (size > MAX_BYTES) fail('the audio is too long')
        else chunks.push(c)
      })
      child.on('error', err => { clearTimeout(timer); reject(new ProviderUnavailableError('tts', err.message, { cause: err })) })
      child.on('close', code => {
        clearTimeout(timer)
        if (code !== 0) return reject(new ProviderUnavailableError('tts', `espeak-ng exited with ${code}`))
        resolve(fixWavSizes(Buffer.concat(chunks)))
      })
      child.stdin.on('error', () => undefined)
      child.stdin.end(text)
    })
  }
}
