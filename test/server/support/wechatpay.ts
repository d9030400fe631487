/**
 * A local WeChat Pay API v3 on 127.0.0.1: checks the merchant's Authorization signature on every
 * request, speaks jsapi / h5 prepay, query by out_trade_no and close, refunds (POST
 * /v3/refund/domestic/refunds, at most the order's total over all its refunds, idempotent per
 * out_refund_no; GET .../refunds/{out_refund_no}), and signs its answers with a platform key. Also
 * builds payment and refund notifications (signed, resource encrypted with AES-256-GCM) the way
 * WeChat Pay sends them, with ways to spoil each part. All keys are generated here with node:crypto.
 */
import { createCipheriv, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'

export const PAY = {
  mchId: '1900000109',
  merchantSerial: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  platformSerial: 'PUB_KEY_ID_0119000001092026030100000001',
  appId: 'wxd678efh567hg6787',
  apiV3Key: 'abcdefghijklmnopqrstuvwxyz012345'
}

export interface SeenRequest { method: string; path: string; body: string; authorization: string; signatureOk: boolean }

export interface NotificationOptions {
  eventType?: string
  serial?: string
  /** Seconds since the epoch (default: now()). */
  timestamp?: number
  /** Change the body after signing it. */
  tamperBody?: boolean
  /** Flip a bit of the GCM tag (the body is signed after, so only the tag check can catch it). */
  badTag?: boolean
  /** Sign with another key. */
  wrongKey?: boolean
}

export interface Transaction {
  out_trade_no: string
  amount?: { total: number }
  trade_state?: string
  mchid?: string
  appid?: string
  transaction_id?: string
}

export type RefundState = 'SUCCESS' | 'CLOSED' | 'PROCESSING' | 'ABNORMAL'
export interface FakeRefund {
  outTradeNo: string
  outRefundNo: string
  refundId: string
  refund: number
  total: number
  notifyUrl: string
  status: RefundState
}

export interface RefundNotice {
  /** Default: the stored refund's. */
  status?: Exclude<RefundState, 'PROCESSING'>
  refund?: number
  outTradeNo?: string
  mchid?: string
}

export interface FakeWeChatPay {
  url: string
  /** The clock the fake checks timestamps against and signs with (set it to the app's). */
  now: () => number
  requests: SeenRequest[]
  /** out_trade_no -> what prepay was asked for. */
  orders: Map<string, { amount: number; kind: 'jsapi' | 'h5'; openid?: string; clientIp?: string }>
  /** out_trade_no -> paid at WeChat (answered by the query). */
  paid: Set<string>
  closed: Set<string>
  /** The next call answers this HTTP error (then back to normal). */
  failNext: { status: number; code: string; message: string } | null
  /** Sign answers with a key the server does not know. */
  forgeAnswers: boolean
  /** out_refund_no -> the refund asked for. */
  refunds: Map<string, FakeRefund>
  /** The status a new refund is answered with (WeChat Pay usually answers PROCESSING). */
  refundAnswer: RefundState
  /** A refund notification as WeChat Pay posts it (resource: the refund, associated_data "refund"). */
  refundNotification (outRefundNo: string, n?: RefundNotice, o?: NotificationOptions): { headers: Record<string, string>; body: string }
  merchantPublicKey: KeyObject
  /** WECHATPAY_* variables (key files written to a temp dir). */
  env: Record<string, string>
  notification (tx: Transaction, o?: NotificationOptions): { headers: Record<string, string>; body: string }
  /** The signature headers WeChat Pay sends over any raw body (for hand-made or broken notifications). */
  sign (body: string, o?: Pick<NotificationOptions, 'serial' | 'timestamp' | 'wrongKey'>): Record<string, string>
  close (): Promise<void>
}

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 })

function parseAuthorization (value: string): Record<string, string> | null {
  const prefix = 'WECHATPAY2-SHA256-RSA2048 '
  if (!value.startsWith(prefix)) return null
  const out: Record<string, string> = {}
  for (const part of value.slice(prefix.length).split(',')) {
    const m = /^(\w+)="([^"]*)"$/.exec(part.trim())
    if (!m) return null
    out[m[1]] = m[2]
  }
  return out
}

export function encryptResource (key: string, plaintext: string, nonce: string, aad: string): string {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'utf8'), Buffer.from(nonce, 'utf8'))
  cipher.setAAD(Buffer.from(aad, 'utf8'))
  const enc = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return Buffer.concat([enc, cipher.getAuthTag()]).toString('base64')
}

export async function startWeChatPay (): Promise<FakeWeChatPay> {
  const merchant = rsa()
  const platform = rsa()
  const stranger = rsa()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wxpay-'))
  const keyFile = path.join(dir, 'apiclient_key.pem')
  const platformFile = path.join(dir, 'pub_key.pem')
  fs.writeFileSync(keyFile, merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }))
  fs.writeFileSync(platformFile, platform.publicKey.export({ type: 'spki', format: 'pem' }))

  const fake = {
    now: () => Date.now(),
    requests: [] as SeenRequest[],
    orders: new Map<string, { amount: number; kind: 'jsapi' | 'h5'; openid?: string; clientIp?: string }>(),
    paid: new Set<string>(),
    closed: new Set<string>(),
    failNext: null as { status: number; code: string; message: string } | null,
    forgeAnswers: false,
    refunds: new Map<string, FakeRefund>(),
    refundAnswer: 'PROCESSING' as RefundState
  }
  const refundJson = (r: FakeRefund) => JSON.stringify({
    refund_id: r.refundId, out_refund_no: r.outRefundNo, transaction_id: `4200${r.outTradeNo}`, out_trade_no: r.outTradeNo,
    channel: 'ORIGINAL', user_received_account: '支付用户零钱', status: r.status, create_time: '2026-03-01T16:00:00+08:00',
    ...(r.status === 'SUCCESS' ? { success_time: '2026-03-01T16:00:05+08:00' } : {}),
    funds_account: 'AVAILABLE',
    amount: { total: r.total, refund: r.refund, payer_total: r.total, payer_refund: r.refund, settlement_refund: r.refund, settlement_total: r.total, discount_refund: 0, currency: 'CNY' }
  })

  const signed = (res: http.ServerResponse, status: number, body: string) => {
    const timestamp = String(Math.floor(fake.now() / 1000))
    const nonce = randomBytes(16).toString('hex')
    const key = fake.forgeAnswers ? stranger.privateKey : platform.privateKey
    const signature = sign('sha256', Buffer.from(`${timestamp}\n${nonce}\n${body}\n`), key).toString('base64')
    res.writeHead(status, {
      'content-type': 'application/json',
      'wechatpay-serial': PAY.platformSerial,
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': signature,
      'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
      'request-id': randomBytes(8).toString('hex')
    })
    res.end(body)
  }
  const error = (res: http.ServerResponse, status: number, code: string, message: string) => signed(res, status, JSON.stringify({ code, message }))

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const urlPath = req.url ?? '/'
      const auth = parseAuthorization(String(req.headers.authorization ?? ''))
      let signatureOk = false
      if (auth && auth.mchid === PAY.mchId && auth.serial_no === PAY.merchantSerial &&
        Math.abs(fake.now() - Number(auth.timestamp) * 1000) <= 5 * 60 * 1000) {
        const message = `${req.method}\n${urlPath}\n${auth.timestamp}\n${auth.nonce_str}\n${body}\n`
        signatureOk = verify('sha256', Buffer.from(message), merchant.publicKey, Buffer.from(auth.signature, 'base64'))
      }
      fake.requests.push({ method: req.method ?? '', path: urlPath, body, authorization: String(req.headers.authorization ?? ''), signatureOk })
      if (!signatureOk) return error(res, 401, 'SIGN_ERROR', 'signature verification failed')
      if (!String(req.headers['user-agent'] ?? '')) return error(res, 400, 'PARAM_ERROR', 'User-Agent is required')
      if (fake.failNext) {
        const f = fake.failNext
        fake.failNext = null
        return error(res, f.status, f.code, f.message)
      }
      const url = new URL(urlPath, 'http://x')
      const json = body ? JSON.parse(body) as Record<string, any> : {}
      const commonOk = (b: Record<string, any>) => b.appid === PAY.appId && b.mchid === PAY.mchId && typeof b.description === 'string' &&
        typeof b.out_trade_no === 'string' && typeof b.notify_url === 'string' && Number.isInteger(b.amount?.total) && b.amount?.currency === 'CNY'
      if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/jsapi') {
        if (!commonOk(json) || typeof json.payer?.openid !== 'string') return error(res, 400, 'PARAM_ERROR', 'bad jsapi order')
        fake.orders.set(json.out_trade_no, { amount: json.amount.total, kind: 'jsapi', openid: json.payer.openid })
        return signed(res, 200, JSON.stringify({ prepay_id: `wx${randomBytes(14).toString('hex')}` }))
      }
      if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/h5') {
        if (!commonOk(json) || typeof json.scene_info?.payer_client_ip !== 'string' || json.scene_info?.h5_info?.type !== 'Wap') {
          return error(res, 400, 'PARAM_ERROR', 'bad h5 order')
        }
        fake.orders.set(json.out_trade_no, { amount: json.amount.total, kind: 'h5', clientIp: json.scene_info.payer_client_ip })
        return signed(res, 200, JSON.stringify({ h5_url: `https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx${json.out_trade_no}` }))
      }
      const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'GET' && query) {
        const no = decodeURIComponent(query[1])
        const order = fake.orders.get(no)
        if (url.searchParams.get('mchid') !== PAY.mchId) return error(res, 400, 'PARAM_ERROR', 'mchid')
        if (!order) return error(res, 404, 'ORDER_NOT_EXIST', 'order does not exist')
        const state = fake.paid.has(no) ? 'SUCCESS' : fake.closed.has(no) ? 'CLOSED' : 'NOTPAY'
        return signed(res, 200, JSON.stringify({
          appid: PAY.appId, mchid: PAY.mchId, out_trade_no: no, trade_state: state, trade_state_desc: state,
          ...(state === 'SUCCESS' ? { transaction_id: `4200${no}`, success_time: '2026-03-01T16:00:00+08:00' } : {}),
          amount: { total: order.amount, currency: 'CNY' }
        }))
      }
      const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(url.pathname)
      if (req.method === 'POST' && close) {
        const no = decodeURIComponent(close[1])
        if (json.mchid !== PAY.mchId) return error(res, 400, 'PARAM_ERROR', 'mchid')
        if (fake.paid.has(no)) return error(res, 400, 'ORDERPAID', 'order paid')
        fake.closed.add(no)
        return signed(res, 204, '')
      }
      if (req.method === 'POST' && url.pathname === '/v3/refund/domestic/refunds') {
        const order = typeof json.out_trade_no === 'string' ? fake.orders.get(json.out_trade_no) : undefined
        const a = json.amount
        if (typeof json.out_refund_no !== 'string' || !/^[A-Za-z0-9_|*@-]{1,64}$/.test(json.out_refund_no) || typeof json.notify_url !== 'string' ||
          !Number.isInteger(a?.refund) || a.refund < 1 || !Number.isInteger(a?.total) || a?.currency !== 'CNY') {
          return error(res, 400, 'PARAM_ERROR', 'bad refund')
        }
        if (!order) return error(res, 404, 'RESOURCE_NOT_EXISTS', 'order does not exist')
        const known = fake.refunds.get(json.out_refund_no)
        if (known) return signed(res, 200, refundJson(known))
        if (a.total !== order.amount) return error(res, 400, 'INVALID_REQUEST', 'total does not match the order')
        const refunded = [...fake.refunds.values()].filter(r => r.outTradeNo === json.out_trade_no && r.status !== 'CLOSED' && r.status !== 'ABNORMAL')
          .reduce((sum, r) => sum + r.refund, 0)
        if (refunded + a.refund > order.amount) return error(res, 400, 'INVALID_REQUEST', 'refunds exceed the order')
        const r: FakeRefund = {
          outTradeNo: json.out_trade_no, outRefundNo: json.out_refund_no, refundId: `5030${randomBytes(10).toString('hex')}`,
          refund: a.refund, total: a.total, notifyUrl: json.notify_url, status: fake.refundAnswer
        }
        fake.refunds.set(r.outRefundNo, r)
        return signed(res, 200, refundJson(r))
      }
      const refundQuery = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'GET' && refundQuery) {
        const r = fake.refunds.get(decodeURIComponent(refundQuery[1]))
        if (!r) return error(res, 404, 'RESOURCE_NOT_EXISTS', 'refund does not exist')
        return signed(res, 200, refundJson(r))
      }
      return error(res, 404, 'NOT_FOUND', 'no such api')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`

  /** The signature headers of a notification body, as WeChat Pay signs it with the platform key. */
  const signBody = (body: string, o: Pick<NotificationOptions, 'serial' | 'timestamp' | 'wrongKey'> = {}): Record<string, string> => {
    const timestamp = String(o.timestamp ?? Math.floor(fake.now() / 1000))
    const headerNonce = randomBytes(16).toString('hex')
    const signature = sign('sha256', Buffer.from(`${timestamp}\n${headerNonce}\n${body}\n`), o.wrongKey ? stranger.privateKey : platform.privateKey).toString('base64')
    return {
      'content-type': 'application/json',
      'wechatpay-serial': o.serial ?? PAY.platformSerial,
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': headerNonce,
      'wechatpay-signature': signature,
      'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048'
    }
  }

  return Object.assign(fake, {
    url,
    merchantPublicKey: merchant.publicKey,
    env: {
      WECHATPAY_MCHID: PAY.mchId,
      WECHATPAY_SERIAL: PAY.merchantSerial,
      WECHATPAY_PRIVATE_KEY_PATH: keyFile,
      WECHATPAY_APIV3_KEY: PAY.apiV3Key,
      WECHATPAY_APPID: PAY.appId,
      WECHATPAY_NOTIFY_URL: 'https://shop.example.com/dev-api/generalOrder/notify/wechat',
      WECHATPAY_PLATFORM_PUBLIC_KEY_PATH: platformFile,
      WECHATPAY_PLATFORM_PUBLIC_KEY_ID: PAY.platformSerial,
      WECHATPAY_API_BASE: url
    },
    notification (tx: Transaction, o: NotificationOptions = {}) {
      const plain = JSON.stringify({
        appid: tx.appid ?? PAY.appId,
        mchid: tx.mchid ?? PAY.mchId,
        out_trade_no: tx.out_trade_no,
        transaction_id: tx.transaction_id ?? `4200001${randomBytes(6).toString('hex')}`,
        trade_type: 'JSAPI',
        trade_state: tx.trade_state ?? 'SUCCESS',
        trade_state_desc: '支付成功',
        bank_type: 'CMC',
        attach: '',
        success_time: '2026-03-01T16:00:00+08:00',
        payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
        amount: { total: tx.amount?.total ?? 0, payer_total: tx.amount?.total ?? 0, currency: 'CNY', payer_currency: 'CNY' }
      })
      const nonce = randomBytes(6).toString('hex')
      let ciphertext = encryptResource(PAY.apiV3Key, plain, nonce, 'transaction')
      if (o.badTag) {
        const raw = Buffer.from(ciphertext, 'base64')
        raw[raw.length - 1] ^= 0x01
        ciphertext = raw.toString('base64')
      }
      const body = JSON.stringify({
        id: randomBytes(8).toString('hex'),
        create_time: '2026-03-01T16:00:00+08:00',
        resource_type: 'encrypt-resource',
        event_type: o.eventType ?? 'TRANSACTION.SUCCESS',
        summary: '支付成功',
        resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce }
      })
      return {
        headers: signBody(body, o),
        body: o.tamperBody ? body.replace('"summary":"支付成功"', '"summary":"支付成功 "') : body
      }
    },
    refundNotification (outRefundNo: string, n: RefundNotice = {}, o: NotificationOptions = {}) {
      const r = fake.refunds.get(outRefundNo)
      const status = n.status ?? (r?.status === 'PROCESSING' || !r ? 'SUCCESS' : r.status)
      if (r) r.status = status
      const plain = JSON.stringify({
        mchid: n.mchid ?? PAY.mchId,
        out_trade_no: n.outTradeNo ?? r?.outTradeNo ?? 'BB20260301000000UNKNOWN0000',
        transaction_id: `4200${r?.outTradeNo ?? '0'}`,
        out_refund_no: outRefundNo,
        refund_id: r?.refundId ?? `5030${randomBytes(10).toString('hex')}`,
        refund_status: status,
        ...(status === 'SUCCESS' ? { success_time: '2026-03-01T16:00:05+08:00' } : {}),
        user_received_account: '支付用户零钱',
        amount: { total: r?.total ?? 0, refund: n.refund ?? r?.refund ?? 0, payer_total: r?.total ?? 0, payer_refund: n.refund ?? r?.refund ?? 0 }
      })
      const nonce = randomBytes(6).toString('hex')
      let ciphertext = encryptResource(PAY.apiV3Key, plain, nonce, 'refund')
      if (o.badTag) {
        const raw = Buffer.from(ciphertext, 'base64')
        raw[raw.length - 1] ^= 0x01
        ciphertext = raw.toString('base64')
      }
      const body = JSON.stringify({
        id: randomBytes(8).toString('hex'),
        create_time: '2026-03-01T16:00:05+08:00',
        resource_type: 'encrypt-resource',
        event_type: o.eventType ?? `REFUND.${status}`,
        summary: status === 'SUCCESS' ? '退款成功' : '退款异常',
        resource: { original_type: 'refund', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'refund', nonce }
      })
      return { headers: signBody(body, o), body: o.tamperBody ? body.replace('"resource_type"', '"resource_type" ') : body }
    },
    sign: signBody,
    close: () => new Promise<void>(resolve => {
      server.closeAllConnections()
      server.close(() => {
        fs.rmSync(dir, { recursive: true, force: true })
        resolve()
      })
    })
  })
}
