/**
 * Pictures (types/vision.ts): OCR with the local engine, a picture described by the AI, a picture
 * drawn from words (kept like an upload), and the shopper's screenshot upload.
 */
import { UPLOAD_FIELD } from '../../../types/limits'
import { visionRoutes as r } from '../../../types/vision'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { enforceLimits } from '../http/request'
import { configured, providerCall } from '../http/provider-call'
import { defineRoute } from '../http/route'
import { requireFetchable } from '../http/fetchable'
import { spendAiBudget } from '../http/aiBudget'
import { helperFeatures } from '../http/helperFeatures'
import { readUploadedImage, storeImage, uploadScope } from '../http/upload'
import { OcrUnreadableError } from '../providers/ocr'
import { ProviderUnavailableError } from '../providers/errors'
import { RULES } from '../security/rules'
import { sniffImage, withinPixelLimit } from '../domain/media/images'

/** What the AI is asked about a picture, in the language of the answer. */
export const PIC2WORD_QUERY = {
  zh: '请用简体中文描述这张图片的内容：画面里有什么、文字写了什么。只回答描述本身。',
  en: 'Describe what this picture shows in English: what is in it and what any text in it says. Answer with the description only.'
} as const

export function visionRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.helpers, async () => helperFeatures(ctx))

  defineRoute(app, ctx, r.pic2word, async ({ body, userId, request }) => {
    const ai = configured(ctx.ai, 'ai')
    await enforceLimits(ctx, [[RULES.aiPerUser, String(userId)]])
    // the AI fetches the picture: the shop's own or a public one (security/fetchableUrl.ts)
    await requireFetchable(ctx, request, [{ field: 'file', url: body.file }])
    const ticket = await spendAiBudget(ctx, userId)
    const lang = body.lang ?? request.locale
    const answer = await providerCall('ai', () => ticket.call(() => ai.chat({
      query: PIC2WORD_QUERY[lang], inputs: {}, user: `shop-user-${userId}`,
      files: [{ type: 'image', transfer_method: 'remote_url', url: body.file }]
    })))
    return { text: answer.answer.trim() }
  })

  defineRoute(app, ctx, r.word2pic, async ({ body, userId }) => {
    const images = configured(ctx.imageGen, 'imageGen')
    await enforceLimits(ctx, [[RULES.word2picPerOperator, String(userId)]])
    const ticket = await spendAiBudget(ctx, userId)
    const drawn = await providerCall('imageGen', () => ticket.call(() => images.generate(body.text, body.size ?? '1024x1024')))
    const info = sniffImage(drawn.bytes)
    // not a picture, or one larger than any phone should decode: the provider's fault
    if (!info || !withinPixelLimit(info)) throw fail.providerUnavailable('imageGen')
    const stored = await storeImage(ctx, userId, drawn.bytes, info)
    return drawn.revisedPrompt ? { ...stored, revisedPrompt: drawn.revisedPrompt } : stored
  })

  uploadScope(app, scope => {
    defineRoute(scope, ctx, r.ocr, async ({ request, userId }) => {
      const engine = configured(ctx.ocr, 'ocr')
      await enforceLimits(ctx, [[RULES.ocrPerUser, String(userId)]])
      // the picture's size is checked by its header (IMAGE_MAX_PIXELS); the engine scales a large one down
      const { bytes, info } = await readUploadedImage(request)
      let lines
      try {
        lines = await engine.read(bytes, `user:${userId}`)
      } catch (err) {
        if (err instanceof OcrUnreadableError) {
          if (err.reason === 'timeout') throw fail.unprocessable('vision.ocr.tooSlow', { seconds: err.seconds }, { field: UPLOAD_FIELD, reason: err.reason })
          if (err.reason === 'tooComplex') throw fail.unprocessable('vision.ocr.tooComplex', {}, { field: UPLOAD_FIELD, reason: err.reason })
          throw fail.unprocessable('vision.ocr.unreadable', {}, { field: UPLOAD_FIELD, reason: err.reason })
        }
        if (err instanceof ProviderUnavailableError) throw fail.providerUnavailable('ocr')
        throw err
      }
      return { text: lines.map(l => l.text).join('\n'), lines, width: info.width, height: info.height, engine: engine.name, languages: engine.languages }
    })

    defineRoute(scope, ctx, r.imageUpload, async ({ request, userId }) => {
      await enforceLimits(ctx, [[RULES.shopperUploadPerUser, String(userId)]])
      const { bytes, info } = await readUploadedImage(request)
      return storeImage(ctx, userId, bytes, info)
    })
  })
}
