/**
 * The long-running helper calls (types/tasks.ts) with the spec's payload rules, and the spec's stop
 * rules for polling them (section 4), used with utils/taskPoller.ts:
 * - pdf2image {url, format}: format defaults to 'pdf-to-image'; state 1 is done, below 0 failed.
 * - text2video {text} (or {prompt} when only a prompt is given): `succeeded` done, `failed` failed.
 * - text2music {prompt}: the prompt normalised (spec 5: line breaks and tabs become commas, runs of two
 *   or more spaces a comma, then trimmed); queryMusic {item_ids}; `succeeded` done, `failed` failed.
 * Anything else keeps polling.
 */
import type { MusicTask, PdfTask, VideoTask, taskRoutes } from '~types/tasks'
import { normaliseMusicPrompt } from '~types/limits'
import type { Verdict } from '@/utils/taskPoller'
import { ApiError, RequestError } from './errors'
import { postRoute } from './request'

type R = typeof taskRoutes

/** The spec's PDF states: 1 done, below 0 failed, anything else still going. */
export const judgePdf = (task: Pick<PdfTask, 'state'>): Verdict => task.state === 1 ? 'done' : task.state < 0 ? 'failed' : 'continue'
/** Video and music: `succeeded` done, `failed` failed (stop with the result), anything else going. */
export const judgeStatus = (task: Pick<VideoTask | MusicTask, 'status'>): Verdict =>
  task.status === 'succeeded' ? 'done' : task.status === 'failed' ? 'failed' : 'continue'

/**
 * Whether a failed poll ends the task: the server's own refusal (the task is gone, the session ended,
 * bad input) does; the network, a timeout, a provider outage (502) or a rate limit (429) do not - the
 * next poll may well get through.
 */
export function isFatalTaskError (e: unknown): boolean {
  if (e instanceof ApiError) return e.code !== 429 && e.code < 500
  if (e instanceof RequestError) return e.code === 'ERR_CANCELED' || (e.status !== undefined && e.status >= 400 && e.status < 500 && e.status !== 429)
  return true
}

/** The body of text2video: text when given, else prompt (spec 7: "text (or prompt)"). */
export function videoBody (o: { text?: string; prompt?: string }): { text: string } | { prompt: string } {
  const text = o.text?.trim()
  if (text) return { text }
  return { prompt: (o.prompt ?? '').trim() }
}

export const tasksApi = {
  pdf2image: (url: string, format: 'pdf-to-image' = 'pdf-to-image') => postRoute<R['pdf2image']>('/api/pdf2image', { url, format }),
  queryPdf: (taskId: string) => postRoute<R['queryPdf']>('/api/queryPDF2ImageTask', { taskId }),
  text2video: (o: { text?: string; prompt?: string }) => postRoute<R['text2video']>('/api/text2video', videoBody(o)),
  queryVideo: (id: string) => postRoute<R['queryVideo']>('/api/queryVideo', { id }),
  text2music: (prompt: string) => postRoute<R['text2music']>('/api/text2music', { prompt: normaliseMusicPrompt(prompt) }),
  queryMusic: (itemIds: string[]) => postRoute<R['queryMusic']>('/api/queryMusic', { item_ids: itemIds })
}
