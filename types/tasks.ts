/**
 * The long-running helper calls of spec 7 (issue 11), each a task the client creates and then polls
 * every 2000 ms (spec 4, 9; TASK_POLL_MS):
 * - `POST /api/pdf2image` {url, format} + `POST /api/queryPDF2ImageTask` {taskId}: a PDF the shop holds
 *   (an upload, /media/u/<sha>.pdf; never another host) drawn page by page into PNGs by the server's own
 *   engine (pdfjs-dist + @napi-rs/canvas). `state` 1 is done, below 0 failed, anything else goes on.
 * - `POST /api/text2video` {text or prompt} + `POST /api/queryVideo` {id}: Zhipu BigModel CogVideoX.
 * - `POST /api/text2music` {prompt} + `POST /api/queryMusic` {item_ids}: a Suno-style API (gcui-art/suno-api).
 * Video and music end at `succeeded` and stop at `failed`; anything else goes on. A task belongs to the
 * account that created it: anyone else asking about it hears 404, as if it did not exist.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { PDF_URL_PATTERN, TASK_LIMITS } from './limits'
import { MultilineText, Nullable, Obj, StringEnum } from './schema'

// ---- PDF to images -------------------------------------------------------------------------------------

export const PDF_STATE = { pending: 0, done: 1, running: 2, failed: -1 } as const

export const Pdf2ImageRequest = Obj({
  url: Type.String({ pattern: PDF_URL_PATTERN, maxLength: 300, description: 'An uploaded PDF of this shop: /media/u/<sha-256>.pdf (or that path on any origin)' }),
  format: Type.Optional(StringEnum(['pdf-to-image'] as const, { description: 'Default pdf-to-image (PNG pages)' }))
})
export type Pdf2ImageRequest = Static<typeof Pdf2ImageRequest>

const TaskId = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' })
export const Pdf2ImageCreated = Type.Object({ taskId: Type.String(), state: Type.Integer() })
export type Pdf2ImageCreated = Static<typeof Pdf2ImageCreated>

export const PdfTaskQuery = Obj({ taskId: TaskId })
export type PdfTaskQuery = Static<typeof PdfTaskQuery>

export const PdfPage = Type.Object({ url: Type.String(), width: Type.Integer(), height: Type.Integer() })
export type PdfPage = Static<typeof PdfPage>

export const PdfTask = Type.Object({
  taskId: Type.String(),
  /** 0 waiting, 2 drawing, 1 done, below 0 failed (spec 4). */
  state: Type.Integer(),
  /** Pages drawn so far (all of them once done). */
  pages: Type.Array(PdfPage),
  /** Pages in the PDF (null until it was read). */
  pageCount: Nullable(Type.Integer()),
  /** More pages than TASK_LIMITS.pdfMaxPages: only the first ones are drawn. */
  truncated: Type.Boolean(),
  /** Why it failed (state < 0), in the caller's language. */
  message: Type.String()
})
export type PdfTask = Static<typeof PdfTask>

// ---- video and music -----------------------------------------------------------------------------------

export const TaskStatus = StringEnum(['running', 'succeeded', 'failed'] as const)
export type TaskStatus = Static<typeof TaskStatus>

const VideoText = MultilineText({ minLength: 1, maxLength: TASK_LIMITS.videoTextMax })
export const Text2VideoRequest = Obj({
  text: Type.Optional(VideoText),
  prompt: Type.Optional(VideoText)
}, { minProperties: 1, description: 'text, or prompt when text is absent' })
export type Text2VideoRequest = Static<typeof Text2VideoRequest>

export const VideoCreated = Type.Object({ id: Type.String(), status: TaskStatus })
export type VideoCreated = Static<typeof VideoCreated>

export const VideoQuery = Obj({ id: TaskId })
export type VideoQuery = Static<typeof VideoQuery>

export const VideoTask = Type.Object({
  id: Type.String(),
  status: TaskStatus,
  videoUrl: Nullable(Type.String()),
  coverUrl: Nullable(Type.String()),
  message: Type.String()
})
export type VideoTask = Static<typeof VideoTask>

export const Text2MusicRequest = Obj({
  prompt: MultilineText({ minLength: 1, maxLength: TASK_LIMITS.musicPromptMax, description: 'Line breaks and tabs become commas, runs of 2+ spaces a comma, then trimmed (spec 5)' })
})
export type Text2MusicRequest = Static<typeof Text2MusicRequest>

export const MusicItem = Type.Object({
  id: Type.String(),
  status: TaskStatus,
  title: Type.String(),
  audioUrl: Nullable(Type.String()),
  imageUrl: Nullable(Type.String()),
  durationS: Nullable(Type.Number())
})
export type MusicItem = Static<typeof MusicItem>

export const MusicCreated = Type.Object({ item_ids: Type.Array(Type.String()), prompt: Type.String() })
export type MusicCreated = Static<typeof MusicCreated>

export const MusicQuery = Obj({
  item_ids: Type.Array(TaskId, { minItems: 1, maxItems: TASK_LIMITS.musicItemsMax })
})
export type MusicQuery = Static<typeof MusicQuery>

export const MusicTask = Type.Object({
  /** failed when every clip failed, succeeded when none is running and one succeeded, else running. */
  status: TaskStatus,
  items: Type.Array(MusicItem)
})
export type MusicTask = Static<typeof MusicTask>

const tag = 'helpers'
export const taskRoutes = {
  pdf2image: route({
    method: 'POST', url: '/api/pdf2image', auth: 'user', tag, body: Pdf2ImageRequest, data: Pdf2ImageCreated,
    summary: 'Start drawing an uploaded PDF\'s pages as PNG images (a task; poll queryPDF2ImageTask)',
    description: `Local engine (pdfjs-dist + @napi-rs/canvas, PDF_ENGINE). The first ${TASK_LIMITS.pdfMaxPages} pages, ${TASK_LIMITS.pdfMaxSide} px on the longer side; 404 when no such PDF was uploaded; 422 "not configured" when the engine is off; 429 when too many tasks wait, or when the caller already has ${TASK_LIMITS.pdfQueuePerAccount} waiting or being drawn (accounts take turns). A picture inside the PDF above ${TASK_LIMITS.pdfMaxImagePixels} pixels, or a PDF needing more than ${TASK_LIMITS.pdfMemoryMb} MB to draw, fails the task (state < 0) with a message naming the limit.`
  }),
  queryPdf: route({
    method: 'POST', url: '/api/queryPDF2ImageTask', auth: 'user', tag, body: PdfTaskQuery, data: PdfTask,
    summary: 'A PDF task: state 1 done (pages served under /media/u/), below 0 failed, else still going',
    description: '404 for a task of another account (or none).'
  }),
  text2video: route({
    method: 'POST', url: '/api/text2video', auth: 'user', tag, body: Text2VideoRequest, data: VideoCreated,
    summary: 'Start a short video made from a text (a task; poll queryVideo)',
    description: 'Zhipu BigModel CogVideoX (VIDEO_API_BASE, VIDEO_API_KEY, VIDEO_MODEL); 422 "not configured" without a key.'
  }),
  queryVideo: route({
    method: 'POST', url: '/api/queryVideo', auth: 'user', tag, body: VideoQuery, data: VideoTask,
    summary: 'A video task: succeeded (with the video), failed, or running',
    description: '404 for a task of another account (or none).'
  }),
  text2music: route({
    method: 'POST', url: '/api/text2music', auth: 'user', tag, body: Text2MusicRequest, data: MusicCreated,
    summary: 'Start music made from a prompt (a task of one or more clips; poll queryMusic)',
    description: 'A Suno-style API (gcui-art/suno-api: MUSIC_API_BASE, MUSIC_API_KEY); 422 "not configured" without a base.'
  }),
  queryMusic: route({
    method: 'POST', url: '/api/queryMusic', auth: 'user', tag, body: MusicQuery, data: MusicTask,
    summary: 'Music clips: succeeded (with the audio), failed, or running',
    description: '404 when any of the clips is another account\'s (or none).'
  })
}
