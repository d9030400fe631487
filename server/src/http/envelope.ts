/**
 * The wire contract (spec 7): every handled outcome is HTTP 200 with {code, message, data}.
 * Handlers return `ok(request, data)` or throw an ApiFailure; the error handler renders failures.
 */
import type { FastifyRequest } from 'fastify'
import type { ApiEnvelope, ResultCode } from '../../../types/api'
import { translate, type MessageKey, type MessageParams } from '../i18n/messages'
import { presentParams, tidyZh } from '../i18n/fields'

export class ApiFailure extends Error {
  readonly code: ResultCode | number
  readonly key: MessageKey
  readonly params: MessageParams
  readonly data: unknown
  /** 200 for handled outcomes; a provider outage is an infrastructure failure (502). */
  readonly httpStatus: number

  constructor (code: ResultCode | number, key: MessageKey, params: MessageParams = {}, data: unknown = null, httpStatus = 200) {
    super(key)
    this.name = 'ApiFailure'
    this.code = code
    this.key = key
    this.params = params
    this.data = data
    this.httpStatus = httpStatus
  }
}

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

/** The third parties a failure can name (each has a message `provider.<name>`). */
export type ProviderName = 'sms' | 'mail' | 'weapp' | 'wechat' | 'wechatpay' | 'tencentMap' | 'amap' | 'kuaidi100' | 'feishu' | 'wecom' | 'tts' | 'ai' | 'ocr' | 'imageGen' | 'pdf' | 'video' | 'music' | 'jdUnion' | 'juheTrain' | 'juheFlight' | 'media'

/** Shorthands for the failures handlers raise. */
export const fail = {
  /** 400: a named field and why it is wrong. */
  field: (field: string, key: MessageKey, params: MessageParams = {}) =>
    new ApiFailure(400, key, { field, ...params }, { field }),
  badRequest: (key: MessageKey, params: MessageParams = {}, data: unknown = null) => new ApiFailure(400, key, params, data),
  unauthorized: (key: MessageKey = 'auth.required', params: MessageParams = {}, data: unknown = null) =>
    new ApiFailure(401, key, params, data),
  forbidden: (key: MessageKey, params: MessageParams = {}) => new ApiFailure(403, key, params),
  notFound: (key: MessageKey, params: MessageParams = {}) => new ApiFailure(404, key, params),
  conflict: (key: MessageKey, params: MessageParams = {}) => new ApiFailure(409, key, params),
  unprocessable: (key: MessageKey, params: MessageParams = {}, data: unknown = null) => new ApiFailure(422, key, params, data),
  tooManyRequests: (retryAfterMs: number) => {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000))
    return new ApiFailure(429, 'request.rateLimited', { seconds }, { retryAfter: seconds })
  },
  providerNotConfigured: (provider: ProviderName) =>
    new ApiFailure(422, 'provider.notConfigured', { provider: `@provider.${provider}` }, { provider }),
  providerUnavailable: (provider: ProviderName) =>
    new ApiFailure(502, 'provider.unavailable', { provider: `@provider.${provider}` }, { provider }, 502)
}
