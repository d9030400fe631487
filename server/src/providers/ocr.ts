/**
 * OCR with a local engine: tesseract (Debian packages tesseract-ocr, tesseract-ocr-chi-sim,
 * tesseract-ocr-eng), Simplified Chinese and English together (`-l chi_sim+eng`). The image goes in on
 * stdin (`tesseract stdin stdout ... tsv`), the words come out as TSV (level, page, block, paragraph,
 * line, word, left, top, width, height, conf, text), grouped here into lines.
 * Bounded: one engine thread (OMP_THREAD_LIMIT=1), at most 2 runs at once and at most one per account
 * (waiting accounts take turns, so one shopper's pictures never hold every place), a picture above
 * VISION_LIMITS.ocrMaxPixels scaled down first (engines/image-scale.mjs, in a process of its own under
 * a memory limit), 20 s per picture (scaling and reading together), 768 MB of address space for the
 * engine (prlimit, from util-linux, when it is there) and 1 MB of output. What the picture itself
 * causes (it does not decode, cannot be read in time, or needs more memory or output than allowed) is
 * an OcrUnreadableError saying which, the caller's 422; only an engine that does not run is an outage.
 * OCR_ENGINE=off switches it off; unset, it is used when `tesseract --version` runs and lists both
 * languages.
 */
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { VISION_LIMITS } from '../../../types/limits'
import { sniffImage } from '../../../types/imageHeader'
import { ranOutOfMemory, withMemoryLimit } from '../engines/bounded'
import { ProviderUnavailableError } from './errors'

/** Why a picture could not be read: it is broken, it took longer than the limit, it needed more memory or output than allowed. */
export type OcrUnreadableReason = 'unreadable' | 'timeout' | 'tooComplex'
/** The engine ran and could not read the image: the caller's fault (a 422 naming `reason`). */
export class OcrUnreadableError extends Error {
  constructor (readonly reason: OcrUnreadableReason = 'unreadable', readonly seconds = 0) {
    super(`ocr: the engine could not read the image (${reason})`)
    this.name = 'OcrUnreadableError'
  }
}

export interface OcrWordOut { text: string; confidence: number; box: [number, number, number, number] }
export interface OcrLineOut { text: string; confidence: number; words: OcrWordOut[] }
export interface OcrEngine {
  readonly name: string
  readonly languages: string[]
  /** The lines of text in an image (PNG, JPEG, WebP or GIF bytes), read for `account` (whose turn it waits for). */
  read (image: Buffer, account?: string): Promise<OcrLineOut[]>
}

const LANGUAGES = ['chi_sim', 'eng']
const MAX_OUTPUT = 1024 * 1024
const MEMORY_BYTES = 768 * 1024 * 1024
/** The scaler's memory: a picture of IMAGE_MAX_PIXELS decoded (64 MB) and its smaller copy, with Node's own. */
const SCALE_MEMORY_BYTES = 384 * 1024 * 1024
const SCALE_SCRIPT = path.join(__dirname, '..', 'engines', 'image-scale.mjs')
const CONCURRENCY = 2

export interface TesseractOptions {
  /** Scaling and reading one picture, together (VISION_LIMITS.ocrTimeoutS). */
  timeoutMs?: number
  /** Pictures larger are scaled down to this many pixels first (VISION_LIMITS.ocrMaxPixels). */
  maxPixels?: number
  /** Runs at once (each account at most one of them). */
  concurrency?: number
}

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

/** Word boxes read on a scaled-down copy, in the original picture's pixels. */
function scaleBoxes (lines: OcrLineOut[], sx: number, sy: number): OcrLineOut[] {
  return lines.map(line => ({
    ...line,
    words: line.words.map(w => ({ ...w, box: [Math.round(w.box[0] * sx), Math.round(w.box[1] * sy), Math.round(w.box[2] * sx), Math.round(w.box[3] * sy)] as [number, number, number, number] }))
  }))
}

/**
 * Places shared fairly: at most `limit` holders at once and at most `perAccount` of them one account's;
 * the others wait, and a free place goes to the waiting account served longest ago (one never served
 * first; between equals, the one waiting longest). So an account's run waits for at most one run of
 * each other account, never for another account's whole line.
 */
export class FairGate {
  private active = 0
  private served = 0
  private readonly holding = new Map<string, number>()
  /** When each account holding or waiting was last given a place (a count of places given). */
  private readonly lastServed = new Map<string, number>()
  /** Each account's waiting runs, the accounts in the order they began to wait (a Map keeps insertion order). */
  private readonly waiting = new Map<string, Array<() => void>>()
  constructor (private readonly limit: number, private readonly perAccount = 1) {}

  /** Runs holding a place, waiting for one first. */
  async run<T> (account: string, fn: () => Promise<T>): Promise<T> {
    if (!this.waiting.has(account) && this.free(account)) this.take(account)
    else {
      await new Promise<void>(resolve => {
        const q = this.waiting.get(account)
        if (q) q.push(resolve)
        else this.waiting.set(account, [resolve])
      })
    }
    try {
      return await fn()
    } finally {
      this.active--
      const held = (this.holding.get(account) ?? 1) - 1
      if (held > 0) this.holding.set(account, held)
      else this.holding.delete(account)
      // an account with nothing held or waiting is forgotten
      if (held <= 0 && !this.waiting.has(account)) this.lastServed.delete(account)
      this.dispatch()
    }
  }

  /** Runs holding a place, and waiting (tests, logs). */
  get counts (): { active: number; waiting: number } {
    let waiting = 0
    for (const q of this.waiting.values()) waiting += q.length
    return { active: this.active, waiting }
  }

  private free (account: string): boolean {
    return this.active < this.limit && (this.holding.get(account) ?? 0) < this.perAccount
  }

  private take (account: string): void {
    this.active++
    this.holding.set(account, (this.holding.get(account) ?? 0) + 1)
    this.lastServed.set(account, ++this.served)
  }

  /** Gives free places to waiting accounts, the one served longest ago first. */
  private dispatch (): void {
    while (this.active < this.limit) {
      let best: string | null = null
      for (const account of this.waiting.keys()) {
        if (!this.free(account)) continue
        if (best === null || (this.lastServed.get(account) ?? -1) < (this.lastServed.get(best) ?? -1)) best = account
      }
      if (best === null) return
      const q = this.waiting.get(best)!
      const next = q.shift()!
      if (!q.length) this.waiting.delete(best)
      this.take(best)
      next()
    }
  }
}

interface ChildResult { code: number | null; signal: NodeJS.Signals | null; stdout: Buffer; stderr: string; timedOut: boolean; tooMuch: boolean }

/** Runs a command with `input` on stdin, collecting at most `maxOutput` bytes; killed at `timeoutMs` or when it says more. */
function runChild (command: string, args: string[], input: Buffer, o: { timeoutMs: number; maxOutput: number; env?: NodeJS.ProcessEnv; cwd?: string }): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: o.env ?? process.env, cwd: o.cwd })
    const chunks: Buffer[] = []
    let size = 0
    let stderr = ''
    let timedOut = false
    let tooMuch = false
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, Math.max(1, o.timeoutMs))
    child.stdout.on('data', (c: Buffer) => {
      size += c.length
      if (size > o.maxOutput) { tooMuch = true; child.kill('SIGKILL') } else chunks.push(c)
    })
    child.stderr.on('data', (c: Buffer) => { if (stderr.length < 2000) stderr += c.toString() })
    child.on('error', err => { clearTimeout(timer); reject(err) })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout: Buffer.concat(chunks), stderr, timedOut, tooMuch })
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(input)
  })
}

const versions = new Map<string, string | null>()

function askVersion (command: string): string | null {
  try {
    const r = spawnSync(command, ['--version'], { timeout: 5000, encoding: 'utf8' })
    if (r.status !== 0) return null
    return /tesseract\s+v?(\d+(?:\.\d+)*)/i.exec(`${r.stdout}${r.stderr}`)?.[1] ?? ''
  } catch {
    return null
  }
}

export class TesseractEngine implements OcrEngine {
  readonly languages = ['zh', 'en']
  /** "tesseract 5.3.0" (the version asked once per process), or "tesseract" when it does not answer. */
  get name (): string {
    const version = this.knownVersion !== undefined ? this.knownVersion : TesseractEngine.version(this.command)
    return version ? `tesseract ${version}` : 'tesseract'
  }

  readonly gate: FairGate
  readonly timeoutMs: number
  private readonly maxPixels: number

  /**
   * `version`: the engine's version, when the caller knows it; otherwise asked (`tesseract --version`)
   * the first time the name is read, not when an app is built.
   */
  constructor (private readonly command = 'tesseract', private readonly knownVersion?: string | null, options: TesseractOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? VISION_LIMITS.ocrTimeoutS * 1000
    this.maxPixels = options.maxPixels ?? VISION_LIMITS.ocrMaxPixels
    this.gate = new FairGate(options.concurrency ?? CONCURRENCY, 1)
  }

  /**
   * The engine's version ("5.3.0"), or null when it does not run. Asked once per command and process:
   * an engine is made with each app, and each `tesseract --version` is a process of 40 ms.
   */
  static version (command = 'tesseract'): string | null {
    if (!versions.has(command)) versions.set(command, askVersion(command))
    return versions.get(command) ?? null
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

  read (image: Buffer, account = ''): Promise<OcrLineOut[]> {
    return this.gate.run(account, () => this.run(image))
  }

  /** Scales the picture down when it is larger than maxPixels, then reads it; both within timeoutMs. */
  protected async run (image: Buffer): Promise<OcrLineOut[]> {
    const deadline = Date.now() + this.timeoutMs
    const seconds = Math.round(this.timeoutMs / 1000)
    const info = sniffImage(image)
    if (!info) throw new OcrUnreadableError('unreadable')
    let input = image
    let scaledTo: { width: number; height: number } | null = null
    if (info.width * info.height > this.maxPixels) {
      const [cmd, argv] = withMemoryLimit('data', SCALE_MEMORY_BYTES, process.execPath, ['--max-old-space-size=128', SCALE_SCRIPT, String(this.maxPixels)])
      const scaled = await this.spawn(cmd, argv, image, deadline - Date.now(), 64 * 1024 * 1024, path.dirname(SCALE_SCRIPT))
      if (scaled.timedOut) throw new OcrUnreadableError('timeout', seconds)
      if (scaled.code === 2) throw new OcrUnreadableError('unreadable')
      if (scaled.tooMuch || (scaled.code !== 0 && ranOutOfMemory(scaled.code, scaled.signal, scaled.stderr))) throw new OcrUnreadableError('tooComplex')
      if (scaled.code !== 0) throw new ProviderUnavailableError('ocr', `the scaler exited with ${scaled.code ?? scaled.signal}: ${scaled.stderr.slice(0, 300)}`)
      input = scaled.stdout
      scaledTo = sniffImage(input)
      if (!scaledTo) throw new ProviderUnavailableError('ocr', 'the scaler wrote no picture')
    }
    const args = ['stdin', 'stdout', '-l', LANGUAGES.join('+'), '--psm', '3', 'tsv']
    const [cmd, argv] = withMemoryLimit('as', MEMORY_BYTES, this.command, args)
    const read = await this.spawn(cmd, argv, input, deadline - Date.now(), MAX_OUTPUT, undefined, { ...process.env, OMP_THREAD_LIMIT: '1' })
    if (read.timedOut) throw new OcrUnreadableError('timeout', seconds)
    // more words than the output allows, or killed on its way past the memory limit: the picture asked too much
    if (read.tooMuch || read.code === null) throw new OcrUnreadableError('tooComplex')
    // exited with an error: it could not read the image
    if (read.code !== 0) throw new OcrUnreadableError('unreadable')
    const lines = parseTsv(read.stdout.toString('utf8'))
    return scaledTo ? scaleBoxes(lines, info.width / scaledTo.width, info.height / scaledTo.height) : lines
  }

  private async spawn (cmd: string, argv: string[], input: Buffer, timeoutMs: number, maxOutput: number, cwd?: string, env?: NodeJS.ProcessEnv): Promise<ChildResult> {
    if (timeoutMs <= 0) return { code: null, signal: 'SIGKILL', stdout: Buffer.alloc(0), stderr: '', timedOut: true, tooMuch: false }
    try {
      return await runChild(cmd, argv, input, { timeoutMs, maxOutput, cwd, env })
    } catch (err) {
      // the engine is not there or cannot start: an outage
      throw new ProviderUnavailableError('ocr', (err as Error).message, { cause: err })
    }
  }
}
