/**
 * The PDF tasks' runner: one PDF drawn at a time per server (the engine is heavy), the rest waiting in
 * line (at most TASK_LIMITS.pdfQueueMax). Each page is stored as it comes (table media, served under
 * /media/u/<sha>.png) and added to the task's result, so a poll shows the pages drawn so far.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { TASK_LIMITS } from '../../../types/limits'
import type { PdfPage } from '../../../types/tasks'
import type { Clock } from '../clock'
import { iso } from '../clock'
import type { Db } from '../db'
import { PdfRenderError, type PdfEngine, type PdfFailure } from '../engines/pdf'

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
  private readonly queue: Job[] = []
  private running: Promise<void> | null = null
  private closed = false

  constructor (private readonly db: Db, private readonly clock: Clock, private readonly engine: PdfEngine | null, private readonly log: FastifyBaseLogger) {}

  /** Tasks waiting or being drawn in this server. */
  get load (): number { return this.queue.length + (this.running ? 1 : 0) }

  enqueue (job: Job): void {
    this.queue.push(job)
    this.pump()
  }

  /** Waits for the work under way (the app is closing; what waits is dropped, and its polls will see it lost). */
  async close (): Promise<void> {
    this.closed = true
    this.queue.length = 0
    await this.running
  }

  /** Resolves when nothing is waiting or running (tests). */
  async idle (): Promise<void> {
    while (this.running) await this.running
  }

  private pump (): void {
    if (this.running || this.closed) return
    const job = this.queue.shift()
    if (!job) return
    this.running = this.run(job).catch(err => this.log.error({ err, task: job.id }, 'pdf task: could not record the outcome')).finally(() => {
      this.running = null
      this.pump()
    })
  }

  private async run (job: Job): Promise<void> {
    const now = () => iso(this.clock())
    const fail = async (reason: PdfFailure | 'lost') => {
      await this.db.updateTable('helper_tasks').set({ status: 'failed', error: reason, updated_at: now() }).where('id', '=', job.id).execute()
    }
    if (!this.engine) return fail('engine')
    const media = await this.db.selectFrom('media').select(['data', 'ext']).where('sha256', '=', job.sha256).executeTakeFirst()
    if (!media || media.ext !== 'pdf') return fail('notPdf')
    await this.db.updateTable('helper_tasks').set({ status: 'running', updated_at: now() }).where('id', '=', job.id).execute()
    const pages: PdfPage[] = []
    try {
      await this.engine.render(Buffer.from(media.data), {
        maxPages: TASK_LIMITS.pdfMaxPages, maxSide: TASK_LIMITS.pdfMaxSide, maxBytes: TASK_LIMITS.pdfMaxOutputBytes, timeoutMs: TASK_LIMITS.pdfTimeoutMs
      }, async count => {
        await this.db.updateTable('helper_tasks').set({ page_count: count, updated_at: now() }).where('id', '=', job.id).execute()
      }, async page => {
        const sha256 = createHash('sha256').update(page.png).digest('hex')
        await this.db.insertInto('media').values({
          sha256, content_type: 'image/png', ext: 'png', data: page.png, size: page.png.length,
          width: page.width, height: page.height, uploaded_by: job.userId, created_at: now()
        }).onConflict(oc => oc.column('sha256').doNothing()).execute()
        pages.push({ url: `/media/u/${sha256}.png`, width: page.width, height: page.height })
        await this.db.updateTable('helper_tasks').set({ result: JSON.stringify({ pages }), updated_at: now() }).where('id', '=', job.id).execute()
      })
    } catch (err) {
      if (!(err instanceof PdfRenderError)) throw err
      if (err.reason === 'engine' || err.reason === 'timeout') this.log.warn({ err, task: job.id }, 'pdf task failed')
      return fail(err.reason)
    }
    await this.db.updateTable('helper_tasks').set({ status: 'succeeded', updated_at: now() }).where('id', '=', job.id).execute()
  }
}
