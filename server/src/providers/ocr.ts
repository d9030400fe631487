/**
 * OCR with a local engine: tesseract (Debian packages tesseract-ocr, tesseract-ocr-chi-sim,
 * tesseract-ocr-eng), Simplified Chinese and English together (`-l chi_sim+eng`). The image goes in on
 * stdin (`tesseract stdin stdout ... tsv`), the words come out as TSV (level, page, block, paragraph,
 * line, word, left, top, width, height, conf, text), grouped here into lines.
 * Bounded: one engine thread (OMP_THREAD_LIMIT=1), at most 2 runs at once (a third waits), 20 s per
 * run, 768 MB of address space (prlimit, from util-linux, when it is there) and 1 MB of output.
 * OCR_ENGINE=off switches it off; unset, it is used when `tesseract --version` runs and lists both
 * languages.
 */
import { spawn, spawnSync } from 'node:child_process'
import { ProviderUnavailableError } from './errors'

/** The engine ran and could not read the image (a broken file that still looks like an image): the caller's fault. */
export class OcrUnreadableError extends Error {
  constructor () { super('ocr: the engine could not read the image'); this.name = 'OcrUnreadableError' }
}

export interface OcrWordOut { text: string; confidence: number; box: [number, number, number, number] }
export interface OcrLineOut { text: string; confidence: number; words: OcrWordOut[] }
export interface OcrEngine {
  readonly name: string
  readonly languages: string[]
  /** The lines of text in an image (PNG, JPEG, WebP or GIF bytes). */
  read (image: Buffer): Promise<OcrLineOut[]>
}

const LANGUAGES = ['chi_sim', 'eng']
const TIMEOUT_MS = 20_000
const MAX_OUTPUT = 1024 * 1024
const MEMORY_BYTES = 768 * 1024 * 1024
const CONCURRENCY = 2

const HAN = /\p{Script=Han}|[\u3000-\u303f\uff00-\uffef]/u

/** Words joined into a line: no space between two Chinese characters (or CJK punctuation), a space elsewhere. */
export function joinWords (words: string[]): string {
  let out = ''
  for (const w of words) {
    if (!out) out = w
    else if (HAN.test(out.slice(-1)) && HAN.test(w.charAt(0))) out += w
    else out += ` ${w}`
  }
  return out
}

/** The lines of tesseract's TSV output (words of level 5, grouped by page, block, paragraph and line). */
export function parseTsv (tsv: string): OcrLineOut[] {
  const lines = new Map<string, OcrWordOut[]>()
  for (const row of tsv.split(/\r?\n/).slice(1)) {
    const f = row.split('\t')
    if (f.length < 12 || f[0] !== '5') continue
    const text = f.slice(11).join('\t').trim()
    const confidence = Number(f[10])
    if (!text || !(confidence >= 0)) continue
    const key = f.slice(1, 5).join('.')
    const box: [number, number, number, number] = [Number(f[6]) | 0, Number(f[7]) | 0, Number(f[8]) | 0, Number(f[9]) | 0]
    const words = lines.get(key) ?? []
    words.push({ text, confidence: Math.round(confidence * 10) / 10, box })
    lines.set(key, words)
  }
  return [...lines.values()].map(words => ({
    text: joinWords(words.map(w => w.text)),
    confidence: Math.round((words.reduce((s, w) => s + w.confidence, 0) / words.length) * 10) / 10,
    words
  }))
}

/** A counting gate: at most `limit` holders, the others wait their turn. */
class Gate {
  private active = 0
  private readonly waiting: Array<() => void> = []
  constructor (private readonly limit: number) {}
  async run<T> (fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>(resolve => this.waiting.push(resolve))
    else this.active++
    try {
      return await fn()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.active--
    }
  }
}

let prlimitThere: boolean | null = null
const hasPrlimit = () => (prlimitThere ??= spawnSync('prlimit', ['--version'], { timeout: 5000, stdio: 'ignore' }).status === 0)

export class TesseractEngine implements OcrEngine {
  readonly languages = ['zh', 'en']
  readonly name: string
  private readonly gate = new Gate(CONCURRENCY)

  constructor (private readonly command = 'tesseract', version = TesseractEngine.version(command)) {
    this.name = version ? `tesseract ${version}` : 'tesseract'
  }

  /** The engine's version ("5.3.0"), or null when it does not run. */
  static version (command = 'tesseract'): string | null {
    try {
      const r = spawnSync(command, ['--version'], { timeout: 5000, encoding: 'utf8' })
      if (r.status !== 0) return null
      return /tesseract\s+v?(\d+(?:\.\d+)*)/i.exec(`${r.stdout}${r.stderr}`)?.[1] ?? ''
    } catch {
      return null
    }
  }

  /** Whether the engine runs and has both languages' data. */
  static available (command = 'tesseract'): boolean {
    try {
      const r = spawnSync(command, ['--list-langs'], { timeout: 5000, encoding: 'utf8' })
      if (r.status !== 0) return false
      const have = `${r.stdout}`.split(/\s+/)
      return LANGUAGES.every(l => have.includes(l))
    } catch {
      return false
    }
  }

  read (image: Buffer): Promise<OcrLineOut[]> {
    return this.gate.run(() => this.run(image))
  }

  private run (image: Buffer): Promise<OcrLineOut[]> {
    const args = ['stdin', 'stdout', '-l', LANGUAGES.join('+'), '--psm', '3', 'tsv']
    const [cmd, argv] = hasPrlimit() ? ['prlimit', [`--as=${MEMORY_BYTES}`, '--', this.command, ...args]] : [this.command, args]
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, argv, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, OMP_THREAD_LIMIT: '1' } })
      const chunks: Buffer[] = []
      let size = 0
      let done = false
      const fail = (why: string, cause?: unknown) => {
        if (done) return
        done = true
        clearTimeout(timer)
        child.kill('SIGKILL')
        reject(new ProviderUnavailableError('ocr', why, cause ? { cause } : undefined))
      }
      const timer = setTimeout(() => fail('the engine took too long'), TIMEOUT_MS)
      child.stdout.on('data', (c: Buffer) => {
        size += c.length
        if (size > MAX_OUTPUT) fail('the engine said too much')
        else chunks.push(c)
      })
      child.on('error', err => fail(err.message, err))
      child.on('close', (code, signal) => {
        if (done) return
        done = true
        clearTimeout(timer)
        // killed (out of memory): an outage; exited with an error: it could not read the image
        if (code === null) return reject(new ProviderUnavailableError('ocr', `tesseract ended by ${signal}`))
        if (code !== 0) return reject(new OcrUnreadableError())
        resolve(parseTsv(Buffer.concat(chunks).toString('utf8')))
      })
      child.stdin.on('error', () => undefined)
      child.stdin.end(image)
    })
  }
}
