/**
 * The wire contract (spec 7): every handled outcome is HTTP 200 with {code, message, data}.
 * Handlers return `ok(request, data)` or throw an ApiFailure (core/errors.ts, free of
 * Fastify so the domain can raise it); the error handler renders failures.
 */
import type { FastifyRequest } from 'fastify'
import type { ApiEnvelope } from '../../../types/api'
import type { ApiFailure } from '../core/errors'
import { translate, type MessageKey, type MessageParams } from '../i18n/messages'
import { presentParams, tidyZh } from '../i18n/fields'

export function ok<T> (request: FastifyRequest, data: T): ApiEnvelope<T> {
  return { code: 200, message: translate(request.locale, 'ok'), data }
}

/**
 * A message for a person, in the request's language, a `field` named as the route's form labels it
 * and a money limit in yuan (i18n/fields.ts): every failure goes through here, and so does any other
 * text that names a field (the problems a publish lists).
 */
export function messageFor (request: FastifyRequest, key: MessageKey, params: MessageParams = {}): string {
  const shown = presentParams(request.locale, request.routeOptions?.url, params)
  const message = translate(request.locale, key, shown)
  return request.locale === 'zh' && typeof shown.field === 'string' ? tidyZh(message, shown.field) : message
}

export function envelopeOf (request: FastifyRequest, failure: ApiFailure): ApiEnvelope {
  return { code: failure.code, message: messageFor(request, failure.key, failure.params), data: failure.data }
}
