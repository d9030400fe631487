/**
 * PDF to images with a local engine: pdfjs-dist draws each page on an @napi-rs/canvas (both from npm,
 * prebuilt, nothing to apt-get), in a child process (pdf-render.mjs) that is killed at its time limit,
 * so a hostile PDF costs that process only. Its memory is bounded twice: a picture inside the PDF larger
 * than `maxImagePixels` is refused before it is decoded (its size is in its dictionary), and the process
 * runs under `prlimit --data` (bounded.ts), which holds for every allocation, canvas pixels included
 * (--max-old-space-size bounds only the JavaScript heap: a 389 KB PDF of one 20000 x 20000 picture took
 * the renderer to 4.4 GB without it). PDF_ENGINE=off switches it off.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import readline from 'node:readline'
import { ranOutOfMemory, withMemoryLimit } from './bounded'

export interface RenderedPage { page: number; width: number; height: number; png: Buffer }
export interface RenderLimits { maxPages: number; maxSide: number; maxBytes: number; maxImagePixels: number; memoryBytes: number; timeoutMs: number }

/** Why a PDF could not be drawn (a message key suffix): the file, or the engine. */
export type PdfFailure = 'notPdf' | 'encrypted' | 'tooLarge' | 'imageTooLarge' | 'memory' | 'timeout' | 'engine'
export class PdfRenderError extends Error {
  constructor (readonly reason: PdfFailure, message: string) {
    super(message)
    this.name = 'PdfRenderError'
  }
}

export interface PdfEngine {
  readonly name: string
  /** Draws the first pages; `onPages` hears the page count first, `onPage` each page as it is drawn. */
  render (pdf: Buffer, limits: RenderLimits, onPages: (count: number) => Promise<void> | void, onPage: (page: RenderedPage) => Promise<void>): Promise<void>
}

const SCRIPT = path.join(__dirname, 'pdf-render.mjs')

export class PdfjsEngine implements PdfEngine {
  readonly name = 'pdfjs-dist'

  render (pdf: Buffer, limits: RenderLimits, onPages: (count: number) => Promise<void> | void, onPage: (page: RenderedPage) => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      const [command, args] = withMemoryLimit('data', limits.memoryBytes, process.execPath, [
        '--max-old-space-size=256', SCRIPT, String(limits.maxPages), String(limits.maxSide), String(limits.maxBytes), String(limits.maxImagePixels)
      ])
      const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], cwd: path.dirname(SCRIPT) })
      let settled = false
      let failure: PdfRenderError | null = null
      let work = Promise.resolve()
      const finish = (err: PdfRenderError | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (err) { child.kill('SIGKILL'); reject(err) } else resolve()
      }
      const timer = setTimeout(() => finish(new PdfRenderError('timeout', 'the PDF took too long')), limits.timeoutMs)
      let stderr = ''
      child.stderr.on('data', (c: Buffer) => { if (stderr.length < 2000) stderr += c.toString() })
      const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity })
      lines.on('line', line => {
        let msg: { pages?: number; page?: number; width?: number; height?: number; png?: string; error?: string }
        try { msg = JSON.parse(line) } catch { failure ??= new PdfRenderError('engine', 'the engine wrote nonsense'); return }
        if (msg.error) {
          const reason: PdfFailure = msg.error === 'encrypted' ? 'encrypted' : msg.error === 'too-large' ? 'tooLarge' : msg.error === 'image-too-large' ? 'imageTooLarge' : 'notPdf'
          failure ??= new PdfRenderError(reason, msg.error)
        } else if (typeof msg.pages === 'number') {
          const count = msg.pages
          work = work.then(() => onPages(count))
        } else if (typeof msg.page === 'number' && msg.png) {
          const page = { page: msg.page, width: Number(msg.width), height: Number(msg.height), png: Buffer.from(msg.png, 'base64') }
          work = work.then(() => onPage(page))
        }
      })
      child.on('error', err => finish(new PdfRenderError('engine', err.message)))
      child.on('close', (code, signal) => {
        // every page read is stored before the task is called done
        work.then(() => {
          if (failure) return finish(failure)
          if (code !== 0 && ranOutOfMemory(code, signal, stderr)) return finish(new PdfRenderError('memory', `the engine ran out of its ${limits.memoryBytes} bytes (${signal ?? code})`))
          if (code !== 0) return finish(new PdfRenderError('engine', `the engine exited with ${code ?? signal}: ${stderr.slice(0, 300)}`))
          finish(null)
        }, err => finish(new PdfRenderError('engine', (err as Error).message)))
      })
      child.stdin.on('error', () => undefined)
      child.stdin.end(pdf)
    })
  }
}
