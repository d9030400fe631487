/**
 * Request logging without personal data or secrets: a request's query values are redacted but those of
 * known harmless keys (http/redact.ts), and every line written is scrubbed of query values the same way
 * (an error message or a warning of Fastify's that prints the raw URL). No header is logged.
 */
import type { FastifyRequest } from 'fastify'
import type { LogLevel } from '../config'
import { redactingStream, redactUrl } from './redact'

export const maskUrl = redactUrl

export function loggerOptions (level: LogLevel, out?: { write: (s: string) => unknown }) {
  return {
    level,
    stream: redactingStream(out),
    redact: ['req.headers.authorization'],
    serializers: {
      req (req: FastifyRequest) {
        return { method: req.method, url: maskUrl(req.url), remoteAddress: req.ip }
      }
    }
  }
}
