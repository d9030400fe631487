/**
 * GET /media/art/<file>.webp: the demo art (@lobehub/fluent-emoji-3d, MIT), served from node_modules.
 * Only names like 1f436.webp or 2604-fe0f.webp; the files never change, so they are cached for a year.
 * GET /media/u/<sha-256>.<ext>: the images operators uploaded and the files the shop made (kept in the
 * media store, domain/mediaStore.ts: the database or an S3 bucket; named by their bytes' hash, so they
 * never change either). With MEDIA_PUBLIC_BASE (a CDN in front of the bucket) an original is answered
 * with a 302 to <MEDIA_PUBLIC_BASE>/media/<sha-256>.<ext>; a scaled copy is still made here. An outage of
 * the bucket is the 502 of the provider "media".
 * Either takes ?w=N (device pixels): the image scaled down to that width, as WebP (domain/thumbnails).
 * N is a whole number from 1 to 10000, else 400 naming the field.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { ART_NAME, ART_PREFIX } from '../domain/catalogue/art'
import { withinPixelLimit } from '../domain/media/images'
import { objectKey, type MediaInfo, type MediaStore } from '../domain/media/mediaStore'
import { keptScaled, scaled, servedWidth } from '../domain/media/thumbnails'
import { ApiFailure } from '../core/errors'
import { providerCall } from './provider-call'
import { IMMUTABLE } from './static'

export function artDir (): string {
  return path.join(path.dirname(require.resolve('@lobehub/fluent-emoji-3d/package.json')), 'assets')
}

export const UPLOAD_PREFIX = '/media/u/'
const UPLOAD_NAME = /^([0-9a-f]{64})\.(png|jpg|webp|gif|wav|pdf)$/

/** The width asked for by ?w=, or null for the image as it is. */
function askedWidth (query: unknown): number | null {
  const w = (query as Record<string, unknown> | undefined)?.w
  if (w === undefined) return null
  if (typeof w !== 'string' || !/^\d{1,5}$/.test(w) || Number(w) < 1 || Number(w) > 10000) {
    // outside the API, so an HTTP status as well as the envelope's code (an <img> reads only the status)
    throw new ApiFailure(400, 'validation.type', { field: 'w', type: '@type.integer' }, { field: 'w' }, 400)
  }
  return servedWidth(Number(w))
}

const send = (reply: FastifyReply, contentType: string, data: Buffer) =>
  reply.header('content-type', contentType).header('cache-control', IMMUTABLE).header('content-security-policy', "default-src 'none'").send(data)

/** `data` as asked: scaled to the width when that makes it smaller (a damaged image is sent as it is). */
async function answer (reply: FastifyReply, key: string, data: Buffer, contentType: string, width: number | null): Promise<FastifyReply> {
  if (width !== null) {
    const copy = await scaled(key, data, contentType, width).catch(() => null)
    if (copy) return send(reply, copy.contentType, copy.data)
  }
  return send(reply, contentType, data)
}

/** Whether a stored file may be served: a picture kept before uploads were checked for their decoded size is not handed to phones. */
const servable = (info: MediaInfo) => !info.contentType.startsWith('image/') || withinPixelLimit({ width: info.width, height: info.height })

/**
 * `publicBase`: MEDIA_PUBLIC_BASE (object storage behind a CDN), where originals are redirected; null:
 * every file is answered from the store's bytes.
 */
export function registerMedia (app: FastifyInstance, store: MediaStore, publicBase: string | null = null): void {
  const dir = artDir()
  app.get<{ Params: { file: string } }>(`${ART_PREFIX}:file`, async (request, reply) => {
    const width = askedWidth(request.query)
    const { file } = request.params
    if (!ART_NAME.test(file)) return reply.callNotFound()
    let data: Buffer
    try {
      data = await fs.readFile(path.join(dir, file))
    } catch {
      return reply.callNotFound()
    }
    return answer(reply, `art/${file}`, data, 'image/webp', width)
  })
  app.get<{ Params: { file: string } }>(`${UPLOAD_PREFIX}:file`, async (request, reply) => {
    const width = askedWidth(request.query)
    const name = UPLOAD_NAME.exec(request.params.file)
    if (!name) return reply.callNotFound()
    const [, sha256, ext] = name
    if (publicBase !== null || width !== null) {
      // the metadata alone decides a redirect, and a scaled copy already made needs no bytes
      const info = await store.info(sha256)
      if (!info || info.ext !== ext || !servable(info)) return reply.callNotFound()
      if (width === null) return reply.redirect(`${publicBase}/${objectKey(sha256, ext)}`, 302)
      const kept = keptScaled(sha256, info.contentType, width)
      if (kept) return send(reply, kept.contentType, kept.data)
    }
    const file = await providerCall('media', () => store.get(sha256, ext))
    if (!file || file.ext !== ext || !servable(file)) return reply.callNotFound()
    return answer(reply, sha256, file.bytes, file.contentType, width)
  })
}
