/**
 * The series editor (types/editor.ts): series by status, read, save, publish, retire, and image uploads
 * (multipart/form-data, read here only, in a scope of its own). Uploaded images are served from the
 * database under /media/u/ (http/media.ts).
 */
import type { FastifyInstance } from 'fastify'
import multipart from '@fastify/multipart'
import { createHash } from 'node:crypto'
import { editorRoutes as r } from '../../../types/editor'
import { UPLOAD_FIELD, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB } from '../../../types/limits'
import type { Api, AppContext } from '../context'
import { iso } from '../clock'
import { ApiFailure, fail } from '../http/envelope'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { translate } from '../i18n/messages'
import { RULES } from '../security/rules'
import { sniffImage } from '../services/images'
import { editorSeries, listEditorSeries, publishSeries, retireSeries, saveSeries } from '../domain/editor'

export function editorRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.seriesList, async ({ body }) => listEditorSeries(ctx.db, body))
  defineRoute(app, ctx, r.series, async ({ body }) => editorSeries(ctx.db, body.seriesId))
  defineRoute(app, ctx, r.seriesSave, async ({ body, userId }) => saveSeries(ctx.db, ctx.dialect, ctx.clock, userId, body))
  defineRoute(app, ctx, r.seriesPublish, async ({ body, userId, request }) =>
    publishSeries(ctx.db, ctx.dialect, ctx.clock, userId, body.seriesId, (key, params) => translate(request.locale, key, params)))
  defineRoute(app, ctx, r.seriesRetire, async ({ body, userId }) => retireSeries(ctx.db, ctx.dialect, ctx.clock, userId, body.seriesId))

  void app.register(async (scope: FastifyInstance) => {
    await scope.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 } })
    defineRoute(scope as unknown as Api, ctx, r.upload, async ({ request, userId }) => {
      await enforceLimits(ctx, [[RULES.uploadPerUser, String(userId)]])
      let bytes: Buffer
      try {
        const part = request.isMultipart() ? await request.file() : undefined
        if (!part || part.fieldname !== UPLOAD_FIELD) throw fail.field(UPLOAD_FIELD, 'editor.upload.none')
        bytes = await part.toBuffer()
      } catch (err) {
        if (err instanceof ApiFailure) throw err
        const code = (err as { code?: string }).code
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw fail.unprocessable('editor.upload.tooLarge', { mb: UPLOAD_MAX_MB }, { field: UPLOAD_FIELD, maxBytes: UPLOAD_MAX_BYTES })
        // a malformed form, too many parts, a connection cut midway: the file did not arrive whole
        throw fail.field(UPLOAD_FIELD, 'editor.upload.broken')
      }
      if (!bytes.length) throw fail.field(UPLOAD_FIELD, 'editor.upload.none')
      const info = sniffImage(bytes)
      if (!info) throw fail.field(UPLOAD_FIELD, 'editor.upload.notImage')
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      // the same bytes twice are one row (a concurrent twin inserts nothing)
      await ctx.db.insertInto('media').values({
        sha256, content_type: info.contentType, ext: info.ext, data: bytes, size: bytes.length,
        width: info.width, height: info.height, uploaded_by: userId, created_at: iso(ctx.clock())
      }).onConflict(oc => oc.column('sha256').doNothing()).execute()
      return { url: `/media/u/${sha256}.${info.ext}`, contentType: info.contentType, bytes: bytes.length, width: info.width, height: info.height }
    })
  })
}
