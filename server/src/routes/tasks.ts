/**
 * The long-running helper calls (types/tasks.ts): PDF to images (the local engine, domain/tasks.ts),
 * text to video (CogVideoX) and text to music (a Suno-style API). A task is a row of helper_tasks owned
 * by its creator: anyone else, and any id that does not exist, gets the same 404.
 */
import { normaliseMusicPrompt, PDF_URL_PATTERN, TASK_LIMITS } from '../../../types/limits'
import { PDF_STATE, taskRoutes as r, type MusicItem, type PdfTask, type TaskStatus } from '../../../types/tasks'
import type { Api, AppContext } from '../context'
import { iso } from '../core/clock'
import { ApiFailure, fail } from '../core/errors'
import { enforceLimits } from '../http/request'
import { configured, providerCall } from '../http/provider-call'
import { defineRoute } from '../http/route'
import { spendAiBudget } from '../http/aiBudget'
import { translate, type MessageKey } from '../i18n/messages'
import { RULES } from '../security/rules'
import { newTaskId, parsePages } from '../domain/media/tasks'
import { asLiveAccount } from '../domain/account/users'
import type { HelperTasksTable } from '../db/schema'

const PDF_URL = new RegExp(PDF_URL_PATTERN)
const PDF_FAILURES: Record<string, MessageKey> = {
  notPdf: 'tasks.pdf.notPdf', encrypted: 'tasks.pdf.encrypted', tooLarge: 'tasks.pdf.tooLarge',
  imageTooLarge: 'tasks.pdf.imageTooLarge', memory: 'tasks.pdf.memory',
  timeout: 'tasks.pdf.timeout', engine: 'tasks.pdf.engine', lost: 'tasks.pdf.lost'
}
/** The limits a failure's message names. */
const PDF_FAILURE_PARAMS = { max: TASK_LIMITS.pdfMaxImagePixels.toLocaleString('en-US'), mb: TASK_LIMITS.pdfMemoryMb }

export function taskRoutesOf (app: Api, ctx: AppContext): void {
  const now = () => iso(ctx.clock())
  /** The caller's task of that kind, or 404 (someone else's is not told apart from none). */
  const owned = async (kind: HelperTasksTable['kind'], id: string, userId: number) => {
    const row = await ctx.db.selectFrom('helper_tasks').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row || row.kind !== kind || Number(row.user_id) !== userId) throw fail.notFound('tasks.notFound')
    return row
  }

  // ---- PDF to images ----
  defineRoute(app, ctx, r.pdf2image, async ({ body, userId }) => {
    configured(ctx.pdf, 'pdf')
    await enforceLimits(ctx, [[RULES.taskPerUser, String(userId)]])
    const sha256 = /\/media\/u\/([0-9a-f]{64})\.pdf$/.exec(body.url)?.[1]
    if (!PDF_URL.test(body.url) || !sha256) throw fail.field('url', 'tasks.pdf.badUrl')
    const media = await ctx.db.selectFrom('media').select(['ext']).where('sha256', '=', sha256).executeTakeFirst()
    if (!media || media.ext !== 'pdf') throw fail.notFound('tasks.pdf.noSuchPdf')
    // one account's share of the line first (its own tasks are what it waits for), then the line itself
    const place = ctx.pdfTasks.reserve(userId)
    if (place === 'account') throw new ApiFailure(429, 'tasks.pdf.busyYours', { max: TASK_LIMITS.pdfQueuePerAccount })
    if (place === 'full') throw new ApiFailure(429, 'tasks.pdf.busy')
    const id = newTaskId()
    try {
      // not for an account deleted since this request's session was read (its tasks go with it)
      await asLiveAccount(ctx.db, userId, trx => trx.insertInto('helper_tasks').values({
        id, kind: 'pdf', user_id: userId, status: 'pending', provider_id: null, source: sha256, page_count: null, result: null, error: null, created_at: now(), updated_at: now()
      }).execute())
    } catch (err) {
      ctx.pdfTasks.release(userId)
      throw err
    }
    ctx.pdfTasks.enqueue({ id, sha256, userId })
    return { taskId: id, state: PDF_STATE.pending }
  })

  defineRoute(app, ctx, r.queryPdf, async ({ body, userId, request }) => {
    let row = await owned('pdf', body.taskId, userId)
    // a task no server finished in time was lost (a restart dropped its place in line): it failed
    if ((row.status === 'pending' || row.status === 'running') && ctx.clock() - Date.parse(row.updated_at) > TASK_LIMITS.pdfStaleMs) {
      await ctx.db.updateTable('helper_tasks').set({ status: 'failed', error: 'lost', updated_at: now() }).where('id', '=', row.id).where('status', 'in', ['pending', 'running']).execute()
      row = await owned('pdf', body.taskId, userId)
    }
    const state = row.status === 'succeeded' ? PDF_STATE.done : row.status === 'failed' ? PDF_STATE.failed : row.status === 'running' ? PDF_STATE.running : PDF_STATE.pending
    const answer: PdfTask = {
      taskId: row.id,
      state,
      pages: parsePages(row.result),
      pageCount: row.page_count === null ? null : Number(row.page_count),
      truncated: row.page_count !== null && Number(row.page_count) > TASK_LIMITS.pdfMaxPages,
      message: row.status === 'failed' ? translate(request.locale, PDF_FAILURES[row.error ?? ''] ?? 'tasks.pdf.engine', PDF_FAILURE_PARAMS) : ''
    }
    return answer
  })

  // ---- text to video ----
  defineRoute(app, ctx, r.text2video, async ({ body, userId }) => {
    const video = configured(ctx.video, 'video')
    const text = (body.text ?? body.prompt ?? '').trim()
    if (!text) throw fail.field(body.text !== undefined ? 'text' : 'prompt', 'validation.required', { field: body.text !== undefined ? 'text' : 'prompt' })
    await enforceLimits(ctx, [[RULES.taskPerUser, String(userId)]])
    const ticket = await spendAiBudget(ctx, userId)
    const id = newTaskId()
    const providerId = await providerCall('video', () => ticket.call(() => video.create(text, id)))
    // not for an account deleted since this request's session was read (its tasks go with it)
    await asLiveAccount(ctx.db, userId, trx => trx.insertInto('helper_tasks').values({
      id, kind: 'video', user_id: userId, status: 'running', provider_id: providerId, source: null, page_count: null, result: null, error: null, created_at: now(), updated_at: now()
    }).execute())
    return { id, status: 'running' as const }
  })

  defineRoute(app, ctx, r.queryVideo, async ({ body, userId, request }) => {
    const row = await owned('video', body.id, userId)
    const done = (status: TaskStatus, result: { videoUrl: string | null; coverUrl: string | null }) => ({
      id: row.id, status, ...result, message: status === 'failed' ? translate(request.locale, 'tasks.video.failed') : ''
    })
    if (row.status === 'succeeded' || row.status === 'failed') {
      const saved = row.result ? JSON.parse(row.result) as { videoUrl: string; coverUrl: string | null } : { videoUrl: null, coverUrl: null }
      return done(row.status, saved)
    }
    const video = configured(ctx.video, 'video')
    const state = await providerCall('video', () => video.result(row.provider_id ?? ''))
    if (state.status === 'running') return done('running', { videoUrl: null, coverUrl: null })
    const result = state.status === 'succeeded' ? { videoUrl: state.videoUrl, coverUrl: state.coverUrl } : { videoUrl: null, coverUrl: null }
    await ctx.db.updateTable('helper_tasks').set({ status: state.status, result: JSON.stringify(result), updated_at: now() }).where('id', '=', row.id).execute()
    return done(state.status, result)
  })

  // ---- text to music ----
  defineRoute(app, ctx, r.text2music, async ({ body, userId }) => {
    const music = configured(ctx.music, 'music')
    const prompt = normaliseMusicPrompt(body.prompt)
    // nothing but separators is no prompt
    if (!/[\p{L}\p{N}]/u.test(prompt)) throw fail.field('prompt', 'validation.required', { field: 'prompt' })
    await enforceLimits(ctx, [[RULES.taskPerUser, String(userId)]])
    const ticket = await spendAiBudget(ctx, userId)
    const clips = (await providerCall('music', () => ticket.call(() => music.generate(prompt)))).slice(0, TASK_LIMITS.musicItemsMax)
    const ids = clips.map(() => newTaskId())
    // not for an account deleted since this request's session was read (its tasks go with it)
    await asLiveAccount(ctx.db, userId, trx => trx.insertInto('helper_tasks').values(clips.map((c, i) => ({
      id: ids[i], kind: 'music' as const, user_id: userId, status: 'running' as const, provider_id: c.providerId, source: null, page_count: null, result: null, error: null, created_at: now(), updated_at: now()
    }))).execute())
    return { item_ids: ids, prompt }
  })

  defineRoute(app, ctx, r.queryMusic, async ({ body, userId }) => {
    const ids = [...new Set(body.item_ids)]
    const rows = await Promise.all(ids.map(id => owned('music', id, userId)))
    const open = rows.filter(x => x.status !== 'succeeded' && x.status !== 'failed')
    const fresh = new Map<string, MusicItem>()
    if (open.length) {
      const music = configured(ctx.music, 'music')
      const clips = await providerCall('music', () => music.get(open.map(x => x.provider_id ?? '')))
      for (const row of open) {
        const clip = clips.find(c => c.providerId === row.provider_id)
        if (!clip) continue
        const item: MusicItem = { id: row.id, status: clip.status, title: clip.title, audioUrl: clip.audioUrl, imageUrl: clip.imageUrl, durationS: clip.durationS }
        fresh.set(row.id, item)
        if (clip.status !== 'running') {
          await ctx.db.updateTable('helper_tasks').set({ status: clip.status, result: JSON.stringify(item), updated_at: now() }).where('id', '=', row.id).execute()
        }
      }
    }
    const items: MusicItem[] = rows.map(row => fresh.get(row.id) ??
      (row.result ? JSON.parse(row.result) as MusicItem : { id: row.id, status: 'running', title: '', audioUrl: null, imageUrl: null, durationS: null }))
    const status: TaskStatus = items.every(i => i.status === 'failed')
      ? 'failed'
      : items.some(i => i.status === 'running') ? 'running' : 'succeeded'
    return { status, items }
  })
}
