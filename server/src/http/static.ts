/**
 * The H5 build (STATIC_DIR) at "/", with the history-mode fallback done by the not-found handler
 * (errors.ts): a GET for an unknown non-API path that accepts HTML gets index.html.
 */
import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'

/** index.html is revalidated on every visit, so a new deploy is picked up at once. */
const NO_CACHE = 'no-cache'
/** Files whose name carries a content hash (e.g. js/app.89803c51.js) never change. */
const HASHED = /\.[0-9a-f]{8,}\.(js|css|png|jpe?g|gif|svg|webp|woff2?|ttf)$/
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Registers static serving when STATIC_DIR holds an index.html; answers how to send index.html. */
export async function registerStatic (app: FastifyInstance, staticDir: string): Promise<((reply: FastifyReply) => FastifyReply) | null> {
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
    app.log.warn({ staticDir }, 'no H5 build found: only the API is served (run `npm run build:h5`)')
    return null
  }
  await app.register(fastifyStatic, {
    root: staticDir,
    prefix: '/',
    index: ['index.html'],
    cacheControl: false,
    setHeaders (res, filePath) {
      res.setHeader('cache-control', HASHED.test(filePath) ? IMMUTABLE : NO_CACHE)
    }
  })
  return (reply) => reply.sendFile('index.html')
}
