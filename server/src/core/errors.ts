/**
 * The failures the server raises, without any web framework: a handled outcome has a result code, a
 * message key with its params and optional data (spec 7). http/envelope.ts renders them for a request.
 * The keys are the message table's (i18n/messages.ts, a leaf that imports nothing).
 */
import type { ResultCode } from '../../../types/api'
import type { MessageKey, MessageParams } from '../i18n/messages'

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
