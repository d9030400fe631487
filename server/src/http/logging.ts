/** Request logging without personal data: query values that identify people are masked. */
import type { FastifyRequest } from 'fastify'
import type { LogLevel } from '../config'

const MASKED_QUERY = new Set(['phone', 'code', 'js_code', 'email'])

export function maskUrl (url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const params = new URLSearchParams(url.slice(q + 1))
  for (const key of [...params.keys()]) if (MASKED_QUERY.has(key)) params.set(key, '***')
  return `${url.slice(0, q)}?${params.toString()}`
}

export function loggerOptions (level: LogLevel) {
  return {
    level,
    redact: ['req.headers.authorization'],
    serializers: {
      req (req: FastifyRequest) {
        return { method: req.method, url: maskUrl(req.url), remoteAddress: req.ip }
      }
    }
  }
}
