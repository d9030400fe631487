/**
 * The series editor (types/editor.ts): series by status, read, save, publish, retire, and image and
 * PDF uploads (multipart/form-data, read in scopes of their own, http/upload.ts). Uploads are served
 * from the database under /media/u/ (http/media.ts).
 */
import { editorRoutes as r } from '../../../types/editor'
import { UPLOAD_PDF_MAX_BYTES, UPLOAD_PDF_MAX_MB, UPLOAD_FIELD } from '../../../types/limits'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { messageFor } from '../http/envelope'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import { readUploadedFile, readUploadedImage, storeImage, uploadScope } from '../http/upload'
import { editorSeries, listEditorSeries, openCasesAhead, publishSeries, retireSeries, saveSeries } from '../domain/catalogue/editor'
import { saveStock, seriesStock } from '../domain/catalogue/stockEditor'

export function editorRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.seriesList, async ({ body }) => listEditorSeries(ctx.db, body))
  defineRoute(app, ctx, r.series, async ({ body }) => editorSeries(ctx.db, body.seriesId))
  defineRoute(app, ctx, r.seriesSave, async ({ body, userId }) => saveSeries(ctx.db, ctx.dialect, ctx.clock, userId, body))
  defineRoute(app, ctx, r.seriesPublish, async ({ body, userId, request }) =>
    publishSeries(ctx.db, ctx.dialect, ctx.clock, userId, body.seriesId, (key, params) => messageFor(request, key, params), body.lowValueAcknowledged))
  defineRoute(app, ctx, r.seriesRetire, async ({ body, userId }) => retireSeries(ctx.db, ctx.dialect, ctx.clock, userId, body.seriesId))
  defineRoute(app, ctx, r.casesOpenAhead, async ({ body, userId }) => openCasesAhead(ctx.db, ctx.dialect, ctx.clock, userId, body.seriesId, body.count))
  defineRoute(app, ctx, r.stock, async ({ body }) => seriesStock(ctx.db, body.seriesId))
  defineRoute(app, ctx, r.stockSave, async ({ body, userId }) => saveStock(ctx.db, ctx.clock, userId, body))

  uploadScope(app, scope => {
    defineRoute(scope, ctx, r.upload, async ({ request, userId }) => {
      await enforceLimits(ctx, [[RULES.uploadPerUser, String(userId)]])
      const { bytes, info } = await readUploadedImage(request)
      return storeImage(ctx, userId, bytes, info)
    })
  })

  // PDFs (a catalogue, an invoice) to be shown as page images (pdf2image): larger than images, own scope
  uploadScope(app, scope => {
    defineRoute(scope, ctx, r.uploadPdf, async ({ request, userId }) => {
      await enforceLimits(ctx, [[RULES.uploadPerUser, String(userId)]])
      const bytes = await readUploadedFile(request, { maxMb: UPLOAD_PDF_MAX_MB, maxBytes: UPLOAD_PDF_MAX_BYTES, tooLarge: 'editor.upload.pdfTooLarge' })
      if (!isPdf(bytes)) throw fail.field(UPLOAD_FIELD, 'editor.upload.notPdf')
      return storeImage(ctx, userId, bytes, { contentType: 'application/pdf', ext: 'pdf', width: 0, height: 0 })
    })
  }, UPLOAD_PDF_MAX_BYTES)
}

/** A PDF by its bytes: the header %PDF-1.x or %PDF-2.x within the first 1024 bytes (as readers accept it). */
export function isPdf (bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString('latin1')
  return /%PDF-[12]\.\d/.test(head)
}
