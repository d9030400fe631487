/**
 * WeChat Pay API v3, written on node:crypto against the documented API (no third-party library):
 *  - requests carry `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=..,nonce_str=..,signature=..,
 *    timestamp=..,serial_no=..`, the signature being SHA256withRSA (merchant private key) over
 *    "METHOD\nURL\ntimestamp\nnonce\nbody\n" (URL = path + query)
 *  - answers are verified: Wechatpay-Serial is the platform key's, Wechatpay-Timestamp within 5 minutes,
 *    Wechatpay-Signature is SHA256withRSA (platform public key) over "timestamp\nnonce\nbody\n"
 *  - prepay: POST /v3/pay/transactions/jsapi (mini-program, needs the payer's openid) and /h5
 *  - query: GET /v3/pay/transactions/out-trade-no/{no}?mchid=; close: POST .../{no}/close
 *  - refunds: POST /v3/refund/domestic/refunds (out_trade_no, out_refund_no, amount {refund, total,
 *    currency}, notify_url); query GET /v3/refund/domestic/refunds/{out_refund_no}; their notifications
 *    (REFUND.SUCCESS / REFUND.ABNORMAL / REFUND.CLOSED) carry the refund as the resource
 *  - notifications: the same signature check, then the resource decrypted with AEAD_AES_256_GCM
 *    (key = APIv3 key, nonce, associated_data; the 16-byte tag ends the ciphertext)
 *  - the mini-program's paySign: SHA256withRSA over "appId\ntimeStamp\nnonceStr\npackage\n"
 */
import { createDecipheriv, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto'
import type { WeChatPayConfig } from '../config'
import type { Clock } from '../core/clock'
import { ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'

/** A signed message older or newer than this is refused. */
export const WECHATPAY_CLOCK_SKEW_MS = 5 * 60 * 1000
export const AUTH_SCHEMA = 'WECHATPAY2-SHA256-RSA2048'

/** WeChat Pay refused a request (HTTP 4xx with {code, message}). */
export class WeChatPayError extends Error {
  constructor (readonly status: number, readonly code: string, readonly detail: string) {
    super(`WeChat Pay ${status} ${code}: ${detail}`)
    this.name = 'WeChatPayError'
  }
}

/** A notification that must be refused (answered with this HTTP status and {code: 'FAIL'}). */
export class NotificationRejected extends Error {
  constructor (readonly status: number, readonly reason: string) {
    super(reason)
    this.name = 'NotificationRejected'
  }
}

/** The transaction (decrypted notification resource, or a query answer). */
export interface WeChatTransaction {
  appid: string
  mchid: string
  out_trade_no: string
  transaction_id?: string
  trade_type?: string
  trade_state: string
  trade_state_desc?: string
  success_time?: string
  payer?: { openid?: string }
  amount?: { total?: number; payer_total?: number; currency?: string; payer_currency?: string }
}

/** A refund (the refund API's answer, its query, or a decrypted refund notification). */
export interface WeChatRefund {
  out_refund_no: string
  out_trade_no?: string
  refund_id?: string
  transaction_id?: string
  /** The API answers `status`, the notification `refund_status`: SUCCESS | CLOSED | PROCESSING | ABNORMAL */
  status: string
  mchid?: string
  success_time?: string
  amount?: { total?: number; refund?: number; payer_total?: number; payer_refund?: number; currency?: string }
}

export interface WeChatNotification {
  id: string
  eventType: string
  transaction: WeChatTransaction
  /** For REFUND.* events: the refund, checked (refundProblem). */
  refund?: WeChatRefund
}

export interface RefundOrder { outTradeNo: string; outRefundNo: string; refundCents: number; totalCents: number; reason?: string }

export interface JsapiPayParams { appId: string; timeStamp: string; nonceStr: string; package: string; signType: 'RSA'; paySign: string }

export interface PrepayOrder { outTradeNo: string; description: string; amountCents: number }

export interface WeChatPayClient {
  readonly appId: string
  readonly mchId: string
  jsapiPrepay (order: PrepayOrder & { openid: string }): Promise<string>
  h5Prepay (order: PrepayOrder & { clientIp: string }): Promise<string>
  queryByOutTradeNo (outTradeNo: string): Promise<WeChatTransaction>
  close (outTradeNo: string): Promise<void>
  /** Asks WeChat Pay to refund part of a paid order (idempotent per out_refund_no). */
  refund (order: RefundOrder): Promise<WeChatRefund>
  queryRefund (outRefundNo: string): Promise<WeChatRefund>
  jsapiParams (prepayId: string): JsapiPayParams
  /** Verifies and decrypts a notification; throws NotificationRejected. */
  verifyNotification (headers: Record<string, string | string[] | undefined>, rawBody: string): WeChatNotification
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}

export const nonce = () => randomBytes(16).toString('hex')

/** out_trade_no as WeChat Pay defines it: 6-32 letters, digits, _ - | * */
const OUT_TRADE_NO = /^[A-Za-z0-9_|*-]{6,32}$/
/** transaction_id: printable ASCII that fits orders.transaction_id (varchar(64)); WeChat Pay's are 32 at most */
const TRANSACTION_ID = /^[\x21-\x7e]{1,64}$/

/**
 * Why a decrypted (or queried) transaction is not one WeChat Pay could have sent, or null: checked before
 * any of it reaches the database (a null resource, an object as transaction_id, or a NUL in out_trade_no
 * were 500s on settling, found by the schema fuzz).
 */
export function transactionProblem (tx: unknown): string | null {
  if (typeof tx !== 'object' || tx === null || Array.isArray(tx)) return 'resource is not a transaction'
  const t = tx as Record<string, unknown>
  for (const field of ['appid', 'mchid', 'trade_state'] as const) {
    if (typeof t[field] !== 'string') return `transaction has no ${field}`
  }
  if (typeof t.out_trade_no !== 'string' || !OUT_TRADE_NO.test(t.out_trade_no)) return 'transaction has no valid out_trade_no'
  if (t.transaction_id !== undefined && t.transaction_id !== null && (typeof t.transaction_id !== 'string' || !TRANSACTION_ID.test(t.transaction_id))) {
    return 'transaction has an invalid transaction_id'
  }
  if (t.amount !== undefined && (typeof t.amount !== 'object' || t.amount === null || Array.isArray(t.amount))) return 'transaction has an invalid amount'
  return null
}

/** out_refund_no: at most 64 of letters, digits, _ - | * @ */
const OUT_REFUND_NO = /^[A-Za-z0-9_|*@-]{1,64}$/
const REFUND_STATUSES = ['SUCCESS', 'CLOSED', 'PROCESSING', 'ABNORMAL']

/**
 * Why a refund (an answer of the refund API or query, or a decrypted notification whose status is in
 * `refund_status`) is not one WeChat Pay could have sent, or null; a valid one is normalised (status).
 */
export function refundProblem (value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'resource is not a refund'
  const r = value as Record<string, unknown>
  if (typeof r.out_refund_no !== 'string' || !OUT_REFUND_NO.test(r.out_refund_no)) return 'refund has no valid out_refund_no'
  const status = r.status ?? r.refund_status
  if (typeof status !== 'string' || !REFUND_STATUSES.includes(status)) return 'refund has no valid status'
  if (r.refund_id !== undefined && r.refund_id !== null && (typeof r.refund_id !== 'string' || !TRANSACTION_ID.test(r.refund_id))) return 'refund has an invalid refund_id'
  if (r.out_trade_no !== undefined && (typeof r.out_trade_no !== 'string' || !OUT_TRADE_NO.test(r.out_trade_no))) return 'refund has an invalid out_trade_no'
  if (r.mchid !== undefined && typeof r.mchid !== 'string') return 'refund has an invalid mchid'
  if (r.amount !== undefined && (typeof r.amount !== 'object' || r.amount === null || Array.isArray(r.amount))) return 'refund has an invalid amount'
  const amount = r.amount as Record<string, unknown> | undefined
  if (amount && amount.refund !== undefined && !Number.isSafeInteger(amount.refund)) return 'refund has an invalid amount'
  return null
}

function asRefund (value: Record<string, unknown>): WeChatRefund {
  return { ...value, status: String(value.status ?? value.refund_status) } as unknown as WeChatRefund
}

/** SHA256withRSA, base64. */
export function rsaSign (message: string, key: KeyObject | string): string {
  return sign('sha256', Buffer.from(message, 'utf8'), key).toString('base64')
}

export function rsaVerify (message: string, signature: string, key: KeyObject | string): boolean {
  try {
    return verify('sha256', Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64'))
  } catch {
    return false
  }
}

/** AEAD_AES_256_GCM as WeChat Pay uses it; throws on a bad key, nonce or tag. */
export function decryptResource (apiV3Key: string, resource: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(resource.ciphertext, 'base64')
  if (data.length < 17) throw new Error('ciphertext too short')
  const tag = data.subarray(data.length - 16)
  const body = data.subarray(0, data.length - 16)
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'))
  decipher.setAuthTag(tag)
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'))
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
}

/** RFC 3339 in China time, as WeChat Pay writes times (e.g. 2026-03-01T18:00:00+08:00). */
export function chinaTime (ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 19) + '+08:00'
}

/** How long a mini-program prepay_id stays usable (WeChat: 2 hours). */
export const PREPAY_TTL_MS = 2 * 60 * 60 * 1000

export class HttpWeChatPayClient implements WeChatPayClient {
  private readonly privateKey: KeyObject
  private readonly platformKey: KeyObject

  constructor (private readonly config: WeChatPayConfig, private readonly clock: Clock, private readonly timeoutMs = PROVIDER_TIMEOUT_MS) {
    this.privateKey = createPrivateKey(config.privateKeyPem)
    this.platformKey = createPublicKey(config.platformPublicKeyPem)
  }

  get appId (): string { return this.config.appId }
  get mchId (): string { return this.config.mchId }

  /** The Authorization header of a request. */
  authorization (method: string, urlPath: string, body: string, timestamp = Math.floor(this.clock() / 1000), nonceStr = nonce()): string {
    const message = `${method}\n${urlPath}\n${timestamp}\n${nonceStr}\n${body}\n`
    const signature = rsaSign(message, this.privateKey)
    return `${AUTH_SCHEMA} mchid="${this.config.mchId}",nonce_str="${nonceStr}",signature="${signature}",timestamp="${timestamp}",serial_no="${this.config.merchantSerial}"`
  }

  /** Checks the platform's signature headers over a body; answers why not, or null when valid. */
  private signatureProblem (headers: Record<string, string | string[] | undefined>, body: string): string | null {
    const serial = header(headers, 'wechatpay-serial')
    const timestamp = header(headers, 'wechatpay-timestamp')
    const nonceStr = header(headers, 'wechatpay-nonce')
    const signature = header(headers, 'wechatpay-signature')
    if (!serial || !timestamp || !nonceStr || !signature) return 'missing signature headers'
    if (serial.toUpperCase() !== this.config.platformSerial.toUpperCase()) return 'unknown Wechatpay-Serial'
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(this.clock() - Number(timestamp) * 1000) > WECHATPAY_CLOCK_SKEW_MS) return 'stale Wechatpay-Timestamp'
    if (!rsaVerify(`${timestamp}\n${nonceStr}\n${body}\n`, signature, this.platformKey)) return 'bad Wechatpay-Signature'
    return null
  }

  private async request (method: 'GET' | 'POST', urlPath: string, payload?: unknown): Promise<Record<string, unknown> | null> {
    const body = payload === undefined ? '' : JSON.stringify(payload)
    let status: number
    let text: string
    let headers: Record<string, string>
    try {
      const res = await fetch(this.config.apiBase + urlPath, {
        method,
        headers: {
          authorization: this.authorization(method, urlPath, body),
          accept: 'application/json',
          'user-agent': 'blindbox-shop/0.1 (node)',
          'wechatpay-serial': this.config.platformSerial,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' })
        },
        body: payload === undefined ? undefined : body,
        signal: AbortSignal.timeout(this.timeoutMs)
      })
      status = res.status
      text = await res.text()
      headers = Object.fromEntries(res.headers.entries())
    } catch (err) {
      throw new ProviderUnavailableError('wechatpay', `${urlPath}: ${(err as Error).message}`, { cause: err })
    }
    if (status >= 500) throw new ProviderUnavailableError('wechatpay', `${urlPath}: HTTP ${status}`)
    if (status >= 400) {
      let code = 'HTTP_' + status
      let message = text.slice(0, 200)
      try {
        const e = JSON.parse(text) as { code?: string; message?: string }
        code = e.code ?? code
        message = e.message ?? message
      } catch { /* not JSON */ }
      throw new WeChatPayError(status, code, message)
    }
    const problem = this.signatureProblem(headers, text)
    if (problem) throw new ProviderUnavailableError('wechatpay', `${urlPath}: answer refused (${problem})`)
    if (status === 204 || text === '') return null
    try {
      return JSON.parse(text) as Record<string, unknown>
    } catch {
      throw new ProviderUnavailableError('wechatpay', `${urlPath}: the answer is not JSON`)
    }
  }

  private base (order: PrepayOrder) {
    return {
      appid: this.config.appId,
      mchid: this.config.mchId,
      description: order.description.slice(0, 127),
      out_trade_no: order.outTradeNo,
      time_expire: chinaTime(this.clock() + PREPAY_TTL_MS),
      notify_url: this.config.notifyUrl,
      amount: { total: order.amountCents, currency: 'CNY' }
    }
  }

  async jsapiPrepay (order: PrepayOrder & { openid: string }): Promise<string> {
    const a = await this.request('POST', '/v3/pay/transactions/jsapi', { ...this.base(order), payer: { openid: order.openid } })
    const prepayId = a?.prepay_id
    if (typeof prepayId !== 'string' || !prepayId) throw new ProviderUnavailableError('wechatpay', 'jsapi: no prepay_id in the answer')
    return prepayId
  }

  async h5Prepay (order: PrepayOrder & { clientIp: string }): Promise<string> {
    const a = await this.request('POST', '/v3/pay/transactions/h5', {
      ...this.base(order),
      scene_info: { payer_client_ip: order.clientIp, h5_info: { type: 'Wap' } }
    })
    const url = a?.h5_url
    if (typeof url !== 'string' || !url) throw new ProviderUnavailableError('wechatpay', 'h5: no h5_url in the answer')
    return url
  }

  async queryByOutTradeNo (outTradeNo: string): Promise<WeChatTransaction> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(this.config.mchId)}`
    const a = await this.request('GET', path)
    const problem = transactionProblem(a)
    if (problem) throw new ProviderUnavailableError('wechatpay', `query: ${problem}`)
    return a as unknown as WeChatTransaction
  }

  async close (outTradeNo: string): Promise<void> {
    await this.request('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, { mchid: this.config.mchId })
  }

  async refund (order: RefundOrder): Promise<WeChatRefund> {
    const a = await this.request('POST', '/v3/refund/domestic/refunds', {
      out_trade_no: order.outTradeNo,
      out_refund_no: order.outRefundNo,
      ...(order.reason ? { reason: order.reason.slice(0, 80) } : {}),
      notify_url: this.config.refundNotifyUrl,
      amount: { refund: order.refundCents, total: order.totalCents, currency: 'CNY' }
    })
    const problem = refundProblem(a)
    if (problem) throw new ProviderUnavailableError('wechatpay', `refund: ${problem}`)
    return asRefund(a!)
  }

  async queryRefund (outRefundNo: string): Promise<WeChatRefund> {
    const a = await this.request('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`)
    const problem = refundProblem(a)
    if (problem) throw new ProviderUnavailableError('wechatpay', `refund query: ${problem}`)
    return asRefund(a!)
  }

  jsapiParams (prepayId: string): JsapiPayParams {
    const timeStamp = String(Math.floor(this.clock() / 1000))
    const nonceStr = nonce()
    const pkg = `prepay_id=${prepayId}`
    const paySign = rsaSign(`${this.config.appId}\n${timeStamp}\n${nonceStr}\n${pkg}\n`, this.privateKey)
    return { appId: this.config.appId, timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign }
  }

  verifyNotification (headers: Record<string, string | string[] | undefined>, rawBody: string): WeChatNotification {
    const problem = this.signatureProblem(headers, rawBody)
    if (problem) throw new NotificationRejected(401, problem)
    let body: { id?: unknown; event_type?: unknown; resource?: { algorithm?: unknown; ciphertext?: unknown; nonce?: unknown; associated_data?: unknown } }
    try {
      body = JSON.parse(rawBody)
    } catch {
      throw new NotificationRejected(400, 'body is not JSON')
    }
    const r = body?.resource
    if (!r || r.algorithm !== 'AEAD_AES_256_GCM' || typeof r.ciphertext !== 'string' || typeof r.nonce !== 'string') {
      throw new NotificationRejected(400, 'no AEAD_AES_256_GCM resource')
    }
    let plain: string
    try {
      plain = decryptResource(this.config.apiV3Key, {
        ciphertext: r.ciphertext,
        nonce: r.nonce,
        associated_data: typeof r.associated_data === 'string' ? r.associated_data : ''
      })
    } catch {
      throw new NotificationRejected(400, 'resource does not decrypt (bad tag)')
    }
    let transaction: WeChatTransaction
    try {
      transaction = JSON.parse(plain) as WeChatTransaction
    } catch {
      throw new NotificationRejected(400, 'resource is not JSON')
    }
    const eventType = String(body.event_type ?? '')
    if (eventType.startsWith('REFUND.')) {
      const invalid = refundProblem(transaction)
      if (invalid) throw new NotificationRejected(400, invalid)
      return { id: String(body.id ?? ''), eventType, transaction, refund: asRefund(transaction as unknown as Record<string, unknown>) }
    }
    // other events carry other resources and are acknowledged without reading them
    const invalid = eventType === 'TRANSACTION.SUCCESS' ? transactionProblem(transaction) : null
    if (invalid) throw new NotificationRejected(400, invalid)
    return { id: String(body.id ?? ''), eventType, transaction }
  }
}
