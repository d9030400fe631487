/**
 * The API's JSON answers compressed by the client's Accept-Encoding: brotli, else gzip, else as they
 * are. A page of series is about 1.5 KB of JSON and 0.7 KB as brotli; a phone on a slow network waits
 * for every byte. Only JSON answers from COMPRESS_MIN_BYTES on are compressed (below that the saving
 * is smaller than a packet, and the work is not worth it); answers that are streams (downloads, the
 * event stream) and answers that already carry an encoding are left alone. Static files are sent
 * precompressed by http/static.ts.
 *
 * Every answer that could have been compressed says `Vary: Accept-Encoding`, compressed or not.
 */
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { FastifyInstance } from 'fastify'

/** Answers smaller than this (bytes of JSON) are sent as they are. */
export const COMPRESS_MIN_BYTES = 1024
/**
 * Brotli's quality for answers made on the fly: 5 gives most of quality 11's gain (the build's
 * precompressed files) at a small part of its time, about 0.1 ms for a page of series.
 */
const BROTLI_QUALITY = 5

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

export type Coding = 'br' | 'gzip' | null

/**
 * The coding to send for an Accept-Encoding header (RFC 9110, 12.5.3): brotli when it is accepted,
 * else gzip, else none. A coding with q=0 is refused; `*` stands for any coding not named.
 */
export function chooseCoding (header: string | string[] | undefined): Coding {
  if (!header) return null
  const accepted = new Map<string, number>()
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    let q = 1
    for (const p of params) {
      const m = /^\s*q\s*=\s*(\S*)\s*$/.exec(p)
      // a weight that is not one (0 to 1, at most three decimals) refuses the coding
      if (m) q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(m[1]) ? Number(m[1]) : 0
    }
    accepted.set(name.trim(), q)
  }
  const weight = (coding: string) => accepted.get(coding) ?? (coding === 'gzip' ? accepted.get('x-gzip') : undefined) ?? accepted.get('*') ?? 0
  if (weight('br') > 0) return 'br'
  if (weight('gzip') > 0) return 'gzip'
  return null
}

function addVary (current: unknown, value: string): string {
  const text = Array.isArray(current) ? current.join(', ') : typeof current === 'string' ? current : ''
  if (text.split(',').some(v => v.trim().toLowerCase() === value.toLowerCase() || v.trim() === '*')) return text
  return text ? `${text}, ${value}` : value
}

/** Compresses the JSON answers of the routes under `isApiPath` (an onSend hook on the whole app). */
export function registerCompression (app: FastifyInstance, isApiPath: (url: string) => boolean): void {
  // a callback hook: most answers are not compressed, and those go on without a promise of their own
  app.addHook('onSend', (request, reply, payload, done) => {
    const unchanged = () => done(null, payload)
    if (!isApiPath(request.url) || request.method === 'HEAD') return unchanged()
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return unchanged()
    if (reply.getHeader('content-encoding')) return unchanged()
    const type = String(reply.getHeader('content-type') ?? '')
    if (!/^application\/(json|problem\+json)\b/i.test(type)) return unchanged()
    // (a string's bytes are counted without copying them when it is too short anyway)
    if (typeof payload === 'string' ? Buffer.byteLength(payload) < COMPRESS_MIN_BYTES : payload.length < COMPRESS_MIN_BYTES) return unchanged()
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload
    reply.header('vary', addVary(reply.getHeader('vary'), 'Accept-Encoding'))
    const coding = chooseCoding(request.headers['accept-encoding'])
    if (!coding) return unchanged()
    const packing = coding === 'br'
      ? brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : gzip(body, { level: 6 })
    packing.then(packed => {
      reply.header('content-encoding', coding)
      reply.removeHeader('content-length')
      done(null, packed)
    }, (err: Error) => done(err))
  })
}
