/**
 * The PDF tasks' runner: one PDF drawn at a time per server (the engine is heavy), the rest waiting
 * (at most TASK_LIMITS.pdfQueueMax, of which at most pdfQueuePerAccount are one account's). The next
 * task is the first of the waiting account served longest ago (one never served first; between
 * equals, the one waiting longest), so one account's tasks never hold up another's for more than one
 * task of theirs. The PDF is read from the media store, each page is kept there as it comes (served
 * under /media/u/<sha>.png) and added to the task's result, so a poll shows the pages drawn so far. An
 * outage of the store fails the task (engine) rather than leaving it running.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Logger } from '../../core/logger'
import { TASK_LIMITS } from '../../../../types/limits'
import type { PdfPage } from '../../../../types/tasks'
import type { Clock } from '../../core/clock'
import { iso } from '../../core/clock'
import type { Db } from '../../db'
import { PdfRenderError, type PdfEngine, type PdfFailure } from '../../engines/pdf'
import { ProviderUnavailableError } from '../../providers/errors'
import type { MediaStore } from './mediaStore'

/** A task id: 24 random bytes, URL-safe (nobody finds another's task by guessing). */
export const newTaskId = () => randomBytes(24).toString('base64url')

export const parsePages = (result: string | null): PdfPage[] => {
  if (!result) return []
  try {
    const pages = (JSON.parse(result) as { pages?: PdfPage[] }).pages
    return Array.isArray(pages) ? pages : []
  } catch {
    return []
  }
}

interface Job { id: string; sha256: string; userId: number }

export class PdfTaskRunner {
  /** Each account's waiting tasks, the accounts in the order they began to wait (a Map keeps insertion order). */
  private readonly queues = new Map<number, Job[]>()
  /** When each account waiting or drawn was last given the engine (a count of tasks started). */
  private readonly lastServed = new Map<number, number>()
  private served = 0
  private running: Promise<void> | null = null
  private runningUser: number | null = null
  /** Places taken by tasks being created (their row not yet written), per account. */
  private readonly reserved = new Map<number, number>()
  private closed = false

  constructor (private readonly db: Db, private readonly clock: Clock, private readonly engine: PdfEngine | null, private readonly log: Logger, private readonly media: MediaStore) {}

  /** Tasks waiting or being drawn in this server. */
  get load (): number {
    let n = this.running ? 1 : 0
    for (const q of this.queues.values()) n += q.length
    for (const r of this.reserved.values()) n += r
    return n
  }

  /** The line now: tasks waiting (or about to be put in line) and the one being drawn. */
  depth (): { waiting: number; running: number } {
    const running = this.running ? 1 : 0
    return { waiting: this.load - running, running }
  }

  /** One account's tasks waiting or being drawn in this server. */
  loadOf (userId: number): number {
    return (this.queues.get(userId)?.length ?? 0) + (this.reserved.get(userId) ?? 0) + (this.running && this.runningUser === userId ? 1 : 0)
  }

  /**
   * Takes a place in line for a task about to be created, or answers why there is none: the account
   * has its share already, or the line is full. Checked and taken at once, so concurrent calls of one
   * account cannot all pass; `enqueue` fills the place, `release` gives it back.
   */
  reserve (userId: number): 'ok' | 'account' | 'full' {
    if (this.loadOf(userId) >= TASK_LIMITS.pdfQueuePerAccount) return 'account'
    if (this.load >= TASK_LIMITS.pdfQueueMax) return 'full'
    this.reserved.set(userId, (this.reserved.get(userId) ?? 0) + 1)
    return 'ok'
  }

  release (userId: number): void {
    const r = (this.reserved.get(userId) ?? 0) - 1
    if (r > 0) this.reserved.set(userId, r)
    else this.reserved.delete(userId)
  }

  /** Puts a task whose place `reserve` took in line. */
  enqueue (job: Job): void {
    this.release(job.userId)
    const q = this.queues.get(job.userId)
    if (q) q.push(job)
    else this.queues.set(job.userId, [job])
    this.pump()
  }

  /** Waits for the work under way (the app is closing; what waits is dropped, and its polls will see it lost). */
  async close (): Promise<void> {
    this.closed = true
    this.queues.clear()
    await this.running
  }

  /** The next task: the first of the waiting account served longest ago. */
  private next (): Job | undefined {
    let best: number | null = null
    for (const userId of this.queues.keys()) {
      if (best === null || (this.lastServed.get(userId) ?? -1) < (this.lastServed.get(best) ?? -1)) best = userId
    }
    if (best === null) return undefined
    const q = this.queues.get(best)!
    const job = q.shift()!
    if (!q.length) this.queues.delete(best)
    this.lastServed.set(best, ++this.served)
    return job
  }

  /** Resolves when nothing is waiting or running (tests). */
  async idle (): Promise<void> {
    while (this.running) await this.running
  }

  private pump (): void {
    if (this.running || this.closed) return
    const job = this.next()
    if (!job) return
    this.runningUser = job.userId
    this.running = this.run(job).catch(err => this.log.error({ err, task: job.id }, 'pdf task: could not record the outcome')).finally(() => {
      this.running = null
      this.runningUser = null
      // an account with nothing waiting is forgotten
      if (!this.queues.has(job.userId)) this.lastServed.delete(job.userId)
      this.pump()
    })
  }

  private async run (job: Job): Promise<void> {
    const now = () => iso(this.clock())
    const fail = async (reason: PdfFailure | 'lost') => {
      await this.db.updateTable('helper_tasks').set({ status: 'failed', error: reason, updated_at: now() }).where('id', '=', job.id).execute()
    }
    if (!this.engine) return fail('engine')
    const pages: PdfPage[] = []
    try {
      const pdf = await this.media.get(job.sha256, 'pdf')
      if (!pdf) return fail('notPdf')
      await this.db.updateTable('helper_tasks').set({ status: 'running', updated_at: now() }).where('id', '=', job.id).execute()
      await this.engine.render(pdf.bytes, {
        maxPages: TASK_LIMITS.pdfMaxPages, maxSide: TASK_LIMITS.pdfMaxSide, maxBytes: TASK_LIMITS.pdfMaxOutputBytes,
        maxImagePixels: TASK_LIMITS.pdfMaxImagePixels, memoryBytes: TASK_LIMITS.pdfMemoryMb * 1024 * 1024, timeoutMs: TASK_LIMITS.pdfTimeoutMs
      }, async count => {
        await this.db.updateTable('helper_tasks').set({ page_count: count, updated_at: now() }).where('id', '=', job.id).execute()
      }, async page => {
        const sha256 = createHash('sha256').update(page.png).digest('hex')
        await this.media.put(sha256, 'png', 'image/png', page.png, { width: page.width, height: page.height, uploadedBy: job.userId, createdAt: now() })
        pages.push({ url: `/media/u/${sha256}.png`, width: page.width, height: page.height })
        await this.db.updateTable('helper_tasks').set({ result: JSON.stringify({ pages }), updated_at: now() }).where('id', '=', job.id).execute()
      })
    } catch (err) {
      if (err instanceof ProviderUnavailableError) {
        this.log.warn({ err, task: job.id }, 'pdf task failed: the media store is unavailable')
        return fail('engine')
      }
      if (!(err instanceof PdfRenderError)) throw err
      if (err.reason === 'engine' || err.reason === 'timeout' || err.reason === 'memory') this.log.warn({ err, task: job.id }, 'pdf task failed')
      return fail(err.reason)
    }
    await this.db.updateTable('helper_tasks').set({ status: 'succeeded', updated_at: now() }).where('id', '=', job.id).execute()
  }
}
