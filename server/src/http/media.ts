/**
 * GET /media/art/<file>.webp: the demo art (@lobehub/fluent-emoji-3d, MIT), served from node_modules.
 * Only names like 1f436.webp or 2604-fe0f.webp; the files never change, so they are cached for a year.
 * GET /media/u/<sha-256>.<ext>: the images operators uploaded (kept in the database, named by their
 * bytes' hash, so they never change either).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../db'
import { withinPixelLimit } from '../services/images'

export const ART_PREFIX = '/media/art/'
export const ART_NAME = /^[0-9a-f]+(-[0-9a-f]+)*\.webp$/
const IMMUTABLE = 'public, max-age=31536000, immutable'

export function artDir (): string {
  return path.join(path.dirname(require.resolve('@lobehub/fluent-emoji-3d/package.json')), 'assets')
}

/** The URL path of an art file (e.g. artUrl('1f381') -> /media/art/1f381.webp). */
export const artUrl = (code: string) => `${ART_PREFIX}${code}.webp`

export const UPLOAD_PREFIX = '/media/u/'
const UPLOAD_NAME = /^([0-9a-f]{64})\.(png|jpg|webp|gif|wav|pdf)$/

export function registerMedia (app: FastifyInstance, db: Db): void {
  const dir = artDir()
  app.get<{ Params: { file: string } }>(`${ART_PREFIX}:file`, async (request, reply) => {
    const { file } = request.params
    if (!ART_NAME.test(file)) return reply.callNotFound()
    let data: Buffer
    try {
      data = await fs.readFile(path.join(dir, file))
    } catch {
      return reply.callNotFound()
    }
    return reply.header('content-type', 'image/webp').header('cache-control', IMMUTABLE).send(data)
  })
  app.get<{ Params: { file: string } }>(`${UPLOAD_PREFIX}:file`, async (request, reply) => {
    const name = UPLOAD_NAME.exec(request.params.file)
    if (!name) return reply.callNotFound()
    const row = await db.selectFrom('media').select(['content_type', 'ext', 'data', 'width', 'height']).where('sha256', '=', name[1]).executeTakeFirst()
    if (!row || row.ext !== name[2]) return reply.callNotFound()
    // a picture kept before uploads were checked for their decoded size is not handed to phones
    if (row.content_type.startsWith('image/') && !withinPixelLimit({ width: Number(row.width), height: Number(row.height) })) return reply.callNotFound()
    return reply.header('content-type', row.content_type).header('cache-control', IMMUTABLE)
      .header('content-security-policy', "default-src 'none'").send(Buffer.from(row.data))
  })
}
