/**
 * One uploaded file read from a multipart/form-data request (field UPLOAD_FIELD), for the routes that
 * take a file: the editor's image and PDF uploads, the shopper's screenshot, OCR. The file must arrive
 * whole, within its size (UPLOAD_MAX_BYTES for images), and an image must be a PNG, JPEG, WebP or GIF by
 * its bytes; every failure names the field.
 * A route reading uploads is registered in a scope that registered @fastify/multipart (uploadScope).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import { createHash } from 'node:crypto'
import { IMAGE_MAX_PIXELS, UPLOAD_FIELD, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB } from '../../../types/limits'
import type { MessageKey } from '../i18n/messages'
import type { Api, AppContext } from '../context'
import { iso } from '../core/clock'
import { ApiFailure, fail } from '../core/errors'
import { providerCall } from './provider-call'
import { sniffImage, withinPixelLimit, type ImageInfo } from '../domain/media/images'

/**
 * Registers `routes` in a scope of their own that reads multipart forms (one file of at most
 * `maxBytes`, a few small fields).
 */
export function uploadScope (app: Api, routes: (scope: Api) => void, maxBytes = UPLOAD_MAX_BYTES): void {
  void app.register(async (scope: FastifyInstance) => {
    await scope.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 } })
    routes(scope as unknown as Api)
  })
}

/** The size a file may have and the message that says so. */
export interface UploadSize { maxMb: number, maxBytes: number, tooLarge: MessageKey }
const IMAGE_SIZE: UploadSize = { maxMb: UPLOAD_MAX_MB, maxBytes: UPLOAD_MAX_BYTES, tooLarge: 'editor.upload.tooLarge' }

/** The bytes of the request's file field, whole, or the 400/422 that says what is wrong with it. */
export async function readUploadedFile (request: FastifyRequest, size: UploadSize = IMAGE_SIZE): Promise<Buffer> {
  let bytes: Buffer
  try {
    const part = request.isMultipart() ? await request.file() : undefined
    if (!part || part.fieldname !== UPLOAD_FIELD) throw fail.field(UPLOAD_FIELD, 'editor.upload.none')
    bytes = await part.toBuffer()
  } catch (err) {
    if (err instanceof ApiFailure) throw err
    const code = (err as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fail.unprocessable(size.tooLarge, { mb: size.maxMb }, { field: UPLOAD_FIELD, maxBytes: size.maxBytes })
    // a malformed form, too many parts, a connection cut midway: the file did not arrive whole
    throw fail.field(UPLOAD_FIELD, 'editor.upload.broken')
  }
  if (!bytes.length) throw fail.field(UPLOAD_FIELD, 'editor.upload.none')
  return bytes
}

/** The 422 of a picture with more pixels than IMAGE_MAX_PIXELS (its size read from its header). */
export const tooManyPixels = (info: { width: number; height: number }) => fail.unprocessable('editor.upload.tooManyPixels', {
  max: IMAGE_MAX_PIXELS.toLocaleString('en-US'), side: Math.floor(Math.sqrt(IMAGE_MAX_PIXELS)), width: info.width, height: info.height
}, { field: UPLOAD_FIELD, maxPixels: IMAGE_MAX_PIXELS })

/**
 * The image of the request's file field, or the 400/422 that says what is wrong with it. Its size is
 * read from its header and checked before anything decodes it.
 */
export async function readUploadedImage (request: FastifyRequest): Promise<{ bytes: Buffer; info: ImageInfo }> {
  const bytes = await readUploadedFile(request)
  const info = sniffImage(bytes)
  if (!info) throw fail.field(UPLOAD_FIELD, 'editor.upload.notImage')
  if (!withinPixelLimit(info)) throw tooManyPixels(info)
  return { bytes, info }
}

/**
 * Keeps an upload (an image, a PDF) in the media store (the same bytes twice are one file) and answers
 * where it is served; the store's outage is the 502 of the provider "media".
 */
export async function storeImage<T extends { contentType: string, ext: string, width: number, height: number }> (ctx: AppContext, userId: number, bytes: Buffer, info: T) {
  // the last door before a picture is kept and served to every viewer: never one too large to decode
  if (info.ext !== 'pdf' && !withinPixelLimit(info)) throw tooManyPixels(info)
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  await providerCall('media', () => ctx.media.put(sha256, info.ext, info.contentType, bytes, {
    width: info.width, height: info.height, uploadedBy: userId, createdAt: iso(ctx.clock())
  }))
  return { url: `/media/u/${sha256}.${info.ext}`, contentType: info.contentType, bytes: bytes.length, width: info.width, height: info.height }
}
