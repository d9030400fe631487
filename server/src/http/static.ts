/**
 * The H5 build (STATIC_DIR) at "/", with the history-mode fallback done by the not-found handler
 * (errors.ts): a GET for an unknown non-API path that accepts HTML gets the page's own document when
 * the build has one (scripts/prerender.js writes pagesA/home/index.html, home's prerendered first
 * paint, for /pagesA/home/index), else index.html.
 *
 * Text files are sent precompressed: the build writes a brotli (.br) and a gzip (.gz) copy of each
 * (scripts/precompress.js; `npm start` makes them for an older build), and the file a client gets
 * follows its Accept-Encoding (br, then gzip, then the plain file). Every answer that could have been
 * compressed says `Vary: Accept-Encoding`, so a cache never hands brotli to a client without it.
 */
import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'

/** index.html is revalidated on every visit, so a new deploy is picked up at once. */
const NO_CACHE = 'no-cache'
/** Files whose name carries a content hash (e.g. js/app.89803c51.js) never change. */
const HASHED = /\.[0-9a-f]{8,}\.(js|css|png|jpe?g|gif|svg|webp|woff2?|ttf)$/
export const IMMUTABLE = 'public, max-age=31536000, immutable'
/** What an immutable answer is sent without (see trimImmutableAnswers). */
const IMMUTABLE_DROPS = ['etag', 'last-modified', 'accept-ranges', 'x-request-id']
/** The kinds scripts/precompress.js compresses (its COMPRESSIBLE). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|ico)$/
/** A precompressed copy's name, and the file it stands for. */
const COPY = /\.(br|gz)$/

/** The folders of a build that hold no page documents (scripts, styles, files the app links to); scripts/serve-h5.js keeps the same rule. */
const NOT_PAGES = new Set(['js', 'css', 'static', 'media', 'assets'])
/** A page route: folders and `index` (/pagesA/home/index); no dots, so nothing climbs out of the build. */
const PAGE_ROUTE = /^\/([\w-]+)(\/[\w-]+)*\/index$/

/**
 * The document a page route gets: its own, `<route>.html` (pagesA/home/index.html for
 * /pagesA/home/index), when the build has one; else index.html. Query, hash and trailing slashes are
 * ignored. Looked up at each request, so a rebuild with or without the prerender is followed at once.
 */
export function documentFor (staticDir: string, url: string): string {
  const route = url.split(/[?#]/)[0].replace(/\/+$/, '')
  const page = PAGE_ROUTE.exec(route)
  if (!page || NOT_PAGES.has(page[1])) return 'index.html'
  const file = `${route.slice(1)}.html`
  try {
    return fs.statSync(path.join(staticDir, file)).isFile() ? file : 'index.html'
  } catch {
    return 'index.html'
  }
}

/**
 * A file cached for a year is never asked for again: the headers for revalidating it (ETag,
 * Last-Modified), for ranges of it, and the request's id (in the log line all the same) are bytes a
 * phone downloads for nothing, about 150 of the 440 of each such answer (docs/benchmarks.md,
 * Lighthouse). For the build's hashed files and the media answers (http/media.ts).
 */
export function trimImmutableAnswers (app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.getHeader('cache-control') === IMMUTABLE) {
      for (const name of IMMUTABLE_DROPS) reply.removeHeader(name)
    }
    done(null, payload)
  })
}

/**
 * Registers static serving when STATIC_DIR holds an index.html; answers how to send the document of
 * a page route (the history-mode fallback).
 */
export async function registerStatic (app: FastifyInstance, staticDir: string): Promise<((reply: FastifyReply, url: string) => FastifyReply) | null> {
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
    app.log.warn({ staticDir }, 'no H5 build found: only the API is served (run `npm run build:h5`)')
    return null
  }
  await app.register(fastifyStatic, {
    root: staticDir,
    prefix: '/',
    index: ['index.html'],
    cacheControl: false,
    preCompressed: true,
    setHeaders (res, sentPath) {
      const filePath = sentPath.replace(COPY, '')
      res.setHeader('cache-control', HASHED.test(filePath) ? IMMUTABLE : NO_CACHE)
      if (COMPRESSIBLE.test(filePath)) res.setHeader('vary', 'Accept-Encoding')
    }
  })
  return (reply, url) => reply.sendFile(documentFor(staticDir, url))
}
