/**
 * WeChat Pay v3 against a local fake of its API: configuration, signed prepay requests (JSAPI with the
 * mini-program's paySign, H5), verified answers, notifications (signature, serial, timestamp window,
 * AES-256-GCM tag, order checks) settled exactly once, also duplicated and concurrent; query and close.
 */
import { spawnSync } from 'node:child_process'
import { verify } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { TOPUP_PRODUCT_ID } from '../../types/shop'
import { ConfigError, loadConfig } from '../../server/src/config'
import { decryptResource } from '../../server/src/providers/wechatpay'
import { testDialects } from './support/db'
import { createTestApp, get, post, PREFIX, type TestApp } from './support/app'
import { makeShopper, type Shopper } from './support/shop'
import { encryptResource, PAY, startWeChatPay, type FakeWeChatPay } from './support/wechatpay'

describe('WeChat Pay configuration', () => {
  let wx: FakeWeChatPay
  beforeAll(async () => { wx = await startWeChatPay() })
  afterAll(async () => { await wx.close() })

  test('all variables: read and checked at start-up (keys parsed, the public key id kept as serial)', () => {
    const c = loadConfig(wx.env)
    expect(c.wechatPay).toMatchObject({
      mchId: PAY.mchId, merchantSerial: PAY.merchantSerial, appId: PAY.appId, apiV3Key: PAY.apiV3Key,
      platformSerial: PAY.platformSerial, apiBase: wx.url, notifyUrl: wx.env.WECHATPAY_NOTIFY_URL
    })
    expect(c.wechatPay!.privateKeyPem).toContain('PRIVATE KEY')
    expect(loadConfig({}).wechatPay).toBeUndefined()
  })

  test('missing, malformed or unreadable variables are reported by name', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env)
        return []
      } catch (err) {
        return (err as ConfigError).problems
      }
    }
    expect(problems({ WECHATPAY_MCHID: PAY.mchId })[0]).toMatch(/missing: WECHATPAY_SERIAL, WECHATPAY_PRIVATE_KEY_PATH, WECHATPAY_APIV3_KEY, WECHATPAY_APPID, WECHATPAY_NOTIFY_URL, WECHATPAY_PLATFORM_CERT_PATH/)
    expect(problems({ ...wx.env, WECHATPAY_APIV3_KEY: 'too-short' })).toEqual(['WECHATPAY_APIV3_KEY must be exactly 32 bytes'])
    expect(problems({ ...wx.env, WECHATPAY_PRIVATE_KEY_PATH: '/nonexistent.pem' })[0]).toMatch(/WECHATPAY_PRIVATE_KEY_PATH/)
    expect(problems({ ...wx.env, WECHATPAY_PRIVATE_KEY_PATH: wx.env.WECHATPAY_PLATFORM_PUBLIC_KEY_PATH })[0]).toMatch(/WECHATPAY_PRIVATE_KEY_PATH/)
    expect(problems({ ...wx.env, WECHATPAY_PLATFORM_PUBLIC_KEY_PATH: wx.env.WECHATPAY_PRIVATE_KEY_PATH + '.missing' })[0]).toMatch(/WECHATPAY_PLATFORM_PUBLIC_KEY_PATH/)
    expect(problems({ ...wx.env, WECHATPAY_MCHID: 'abc' })[0]).toMatch(/WECHATPAY_MCHID/)
    expect(problems({ ...wx.env, WECHATPAY_API_BASE: 'ftp://x' })[0]).toMatch(/WECHATPAY_API_BASE/)
    expect(problems({ ...wx.env, NODE_ENV: 'production', WECHATPAY_NOTIFY_URL: 'http://shop.example.com/n' })[0]).toMatch(/WECHATPAY_NOTIFY_URL must be an https:\/\//)
  })

  const openssl = spawnSync('openssl', ['version']).status === 0
  ;(openssl ? test : test.skip)('a platform certificate: its serial and public key are read from it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wxcert-'))
    try {
      const key = path.join(dir, 'k.pem')
      const cert = path.join(dir, 'c.pem')
      const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=Tenpay.com Root CA', '-set_serial', '0x1A2B3C4D5E6F'])
      expect(r.status).toBe(0)
      const env = { ...wx.env, WECHATPAY_PLATFORM_PUBLIC_KEY_PATH: '', WECHATPAY_PLATFORM_PUBLIC_KEY_ID: '', WECHATPAY_PLATFORM_CERT_PATH: cert }
      const c = loadConfig(env)
      expect(c.wechatPay!.platformSerial).toBe('1A2B3C4D5E6F')
      expect(c.wechatPay!.platformPublicKeyPem).toContain('PUBLIC KEY')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  test('AES-256-GCM: the resource decrypts with the APIv3 key; a wrong tag, nonce, AAD or key fails', () => {
    const ciphertext = encryptResource(PAY.apiV3Key, '{"a":1}', 'nonce1234567', 'transaction')
    expect(decryptResource(PAY.apiV3Key, { ciphertext, nonce: 'nonce1234567', associated_data: 'transaction' })).toBe('{"a":1}')
    const raw = Buffer.from(ciphertext, 'base64')
    raw[raw.length - 3] ^= 0x10
    expect(() => decryptResource(PAY.apiV3Key, { ciphertext: raw.toString('base64'), nonce: 'nonce1234567', associated_data: 'transaction' })).toThrow()
    expect(() => decryptResource(PAY.apiV3Key, { ciphertext, nonce: 'nonce1234568', associated_data: 'transaction' })).toThrow()
    expect(() => decryptResource(PAY.apiV3Key, { ciphertext, nonce: 'nonce1234567', associated_data: 'refund' })).toThrow()
    expect(() => decryptResource('ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', { ciphertext, nonce: 'nonce1234567', associated_data: 'transaction' })).toThrow()
  })
})

describe.each(testDialects())('WeChat Pay on %s', (dialect) => {
  let t: TestApp
  let wx: FakeWeChatPay
  let s: Shopper
  const OPENID = 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o'
  beforeAll(async () => {
    wx = await startWeChatPay()
    t = await createTestApp(dialect, { env: wx.env })
    wx.now = t.clock.now
    s = await makeShopper(t.app, t.db, t.clock)
    await t.db.insertInto('identities').values({ provider: 'weapp', subject: OPENID, user_id: s.id, created_at: new Date(t.clock.now()).toISOString() }).execute()
  })
  afterAll(async () => {
    await t.close()
    await wx.close()
  })

  const order = async (channel: 'wechat_jsapi' | 'wechat_h5', amountCents = 6600, who: Shopper = s) => {
    const opId = (await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: who.id }, { token: who.token })).body.data as string
    const created = await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: who.id, opId, amountCents, channel }, { token: who.token })
    expect(created.body.code).toBe(200)
    return opId
  }
  const notify = (n: { headers: Record<string, string>; body: string }) =>
    t.app.inject({ method: 'POST', url: `${PREFIX}/generalOrder/notify/wechat`, headers: n.headers, payload: n.body })
  const cash = async (who: Shopper = s) => (await post(t.app, '/api/walletBalance', {}, { token: who.token })).body.data.cashCents as number
  const status = async (opId: string, who: Shopper = s) => (await t.db.selectFrom('orders').select('status').where('op_id', '=', opId).where('user_id', '=', who.id).executeTakeFirstOrThrow()).status

  test('payMethod offers WeChat Pay (JSAPI and H5) beside the sandbox', async () => {
    const r = await get(t.app, '/generalOrder/payMethod')
    expect(r.body.data.map((m: { channel: string; sandbox: boolean }) => [m.channel, m.sandbox])).toEqual([['sandbox', true], ['wechat_jsapi', false], ['wechat_h5', false]])
  })

  test('JSAPI: a signed prepay with the payer\'s openid; the mini-program gets a paySign that verifies; the prepay_id is reused', async () => {
    const opId = await order('wechat_jsapi', 6600)
    const before = wx.requests.length
    const r = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    expect(r.body.code).toBe(200)
    const seen = wx.requests[before]
    expect(seen).toMatchObject({ method: 'POST', path: '/v3/pay/transactions/jsapi', signatureOk: true })
    expect(seen.authorization).toMatch(/^WECHATPAY2-SHA256-RSA2048 mchid="1900000109",nonce_str="[0-9a-f]{32}",signature="[A-Za-z0-9+/=]+",timestamp="\d+",serial_no="5157F09EFDC096DE15EBE81A47057A7232F1B8E1"$/)
    expect(JSON.parse(seen.body)).toMatchObject({
      appid: PAY.appId, mchid: PAY.mchId, out_trade_no: opId, notify_url: wx.env.WECHATPAY_NOTIFY_URL,
      amount: { total: 6600, currency: 'CNY' }, payer: { openid: OPENID }, description: expect.any(String), time_expire: expect.stringMatching(/\+08:00$/)
    })
    const j = r.body.data.jsapi
    expect(r.body.data).toMatchObject({ opId, channel: 'wechat_jsapi' })
    expect(j).toMatchObject({ appId: PAY.appId, signType: 'RSA', package: expect.stringMatching(/^prepay_id=wx[0-9a-f]+$/), timeStamp: String(Math.floor(t.clock.now() / 1000)) })
    const message = `${j.appId}\n${j.timeStamp}\n${j.nonceStr}\n${j.package}\n`
    expect(verify('sha256', Buffer.from(message), wx.merchantPublicKey, Buffer.from(j.paySign, 'base64'))).toBe(true)
    const again = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    expect(again.body.data.jsapi.package).toBe(j.package)
    expect(wx.requests.length).toBe(before + 1)
  })

  test('JSAPI needs the user\'s mini-program openid (422 without)', async () => {
    const other = await makeShopper(t.app, t.db, t.clock)
    const opId = await order('wechat_jsapi', 1000, other)
    const r = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: other.token })
    expect(r.body).toMatchObject({ code: 422, message: 'Log in with the WeChat mini-program to pay with WeChat Pay' })
  })

  test('H5: a signed prepay with the client IP answers the h5_url', async () => {
    const opId = await order('wechat_h5', 2500)
    const r = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token, ip: '203.0.113.9' })
    expect(r.body.data).toEqual({ opId, channel: 'wechat_h5', h5Url: expect.stringMatching(/^https:\/\/wx\.tenpay\.com\//) })
    expect(wx.orders.get(opId)).toEqual({ amount: 2500, kind: 'h5', clientIp: '203.0.113.9' })
  })

  test('WeChat Pay refusing the order, or an answer not signed by the platform, is a provider failure (502)', async () => {
    const opId = await order('wechat_h5', 2500)
    wx.failNext = { status: 400, code: 'PARAM_ERROR', message: 'bad' }
    const refused = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    expect(refused.status).toBe(502)
    expect(refused.body).toMatchObject({ code: 502, message: 'WeChat Pay is unavailable, please try again later', data: { provider: 'wechatpay', errcode: 'PARAM_ERROR' } })
    wx.forgeAnswers = true
    try {
      const forged = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
      expect(forged.status).toBe(502)
      expect(forged.body.data).toEqual({ provider: 'wechatpay' })
    } finally {
      wx.forgeAnswers = false
    }
    expect(await status(opId)).toBe('created')
  })

  test('a verified notification settles the order: 204, the order paid, the cash credited through the ledger', async () => {
    const opId = await order('wechat_jsapi', 6600)
    await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    const before = await cash()
    const res = await notify(wx.notification({ out_trade_no: opId, amount: { total: 6600 }, transaction_id: '4200001234' }))
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect(await cash()).toBe(before + 6600)
    const o = await t.db.selectFrom('orders').selectAll().where('op_id', '=', opId).executeTakeFirstOrThrow()
    expect(o).toMatchObject({ status: 'paid', transaction_id: '4200001234' })
    const view = await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: s.token })
    expect(view.body.data).toMatchObject({ status: 'paid', channel: 'wechat_jsapi', amountCents: 6600 })
    const lines = await t.db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
      .select(['ledger_lines.account', 'ledger_lines.amount_cents']).where('ledger_transactions.reference', '=', opId).orderBy('ledger_lines.id').execute()
    expect(lines.map(l => [l.account, Number(l.amount_cents)])).toEqual([['payment_clearing', -6600], ['user_cash', 6600]])
  })

  test('duplicate and concurrent notifications settle once', async () => {
    const opId = await order('wechat_jsapi', 4321)
    await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    const before = await cash()
    const n = wx.notification({ out_trade_no: opId, amount: { total: 4321 } })
    expect((await notify(n)).statusCode).toBe(204)
    expect((await notify(n)).statusCode).toBe(204)
    expect(await cash()).toBe(before + 4321)
    const opId2 = await order('wechat_jsapi', 1234)
    await post(t.app, '/generalOrder/getPaymentParam', { opId: opId2 }, { token: s.token })
    const burst = await Promise.all(Array.from({ length: 12 }, () => notify(wx.notification({ out_trade_no: opId2, amount: { total: 1234 } }))))
    expect(burst.map(r => r.statusCode)).toEqual(new Array(12).fill(204))
    expect(await cash()).toBe(before + 4321 + 1234)
    const txs = await t.db.selectFrom('ledger_transactions').select('id').where('reference', 'in', [opId, opId2]).execute()
    expect(txs).toHaveLength(2)
  })

  test('refused notifications: tampered body, wrong serial, stale timestamp, wrong key, bad tag, not JSON; nothing settled', async () => {
    const opId = await order('wechat_jsapi', 5000)
    await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    const before = await cash()
    const tx = { out_trade_no: opId, amount: { total: 5000 } }
    const now = Math.floor(t.clock.now() / 1000)
    const cases: Array<[string, { headers: Record<string, string>; body: string }, number, RegExp]> = [
      ['tampered body', wx.notification(tx, { tamperBody: true }), 401, /Wechatpay-Signature/],
      ['wrong serial', wx.notification(tx, { serial: 'PUB_KEY_ID_0000' }), 401, /Wechatpay-Serial/],
      ['stale timestamp', wx.notification(tx, { timestamp: now - 6 * 60 }), 401, /Wechatpay-Timestamp/],
      ['future timestamp', wx.notification(tx, { timestamp: now + 6 * 60 }), 401, /Wechatpay-Timestamp/],
      ['signed by someone else', wx.notification(tx, { wrongKey: true }), 401, /Wechatpay-Signature/],
      ['bad GCM tag', wx.notification(tx, { badTag: true }), 400, /bad tag/]
    ]
    for (const [what, n, code, reason] of cases) {
      const res = await notify(n)
      expect({ what, status: res.statusCode }).toEqual({ what, status: code })
      expect(res.json()).toEqual({ code: 'FAIL', message: expect.stringMatching(reason) })
    }
    const unsigned = wx.notification(tx)
    const { 'wechatpay-signature': _dropped, ...noSignature } = unsigned.headers
    expect((await notify({ headers: noSignature, body: unsigned.body })).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'POST', url: `${PREFIX}/generalOrder/notify/wechat`, payload: 'x'.repeat(70 * 1024), headers: { 'content-type': 'text/plain' } })).json()).toMatchObject({ code: 'FAIL' })
    expect(await cash()).toBe(before)
    expect(await status(opId)).toBe('created')
    // within the window is fine
    expect((await notify(wx.notification(tx, { timestamp: now - 4 * 60 }))).statusCode).toBe(204)
    expect(await cash()).toBe(before + 5000)
  })

  test('a notification that does not match its order (amount, merchant, app, unknown number) is refused and not settled', async () => {
    const opId = await order('wechat_jsapi', 3000)
    await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    const before = await cash()
    for (const tx of [
      { out_trade_no: opId, amount: { total: 3001 } },
      { out_trade_no: opId, amount: { total: 3000 }, mchid: '1900000999' },
      { out_trade_no: opId, amount: { total: 3000 }, appid: 'wx0000000000000000' }
    ]) {
      const res = await notify(wx.notification(tx))
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ code: 'FAIL', message: 'mchid, appid or amount does not match the order' })
    }
    const unknown = await notify(wx.notification({ out_trade_no: 'BB20260301000000FFFFFFFFFFFF', amount: { total: 3000 } }))
    expect(unknown.statusCode).toBe(404)
    // a sandbox order cannot be paid by a WeChat notification
    const sandboxOp = (await post(t.app, '/generalOrder/getUniqueOrderNo', { userId: s.id }, { token: s.token })).body.data
    await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, opId: sandboxOp, amountCents: 3000, channel: 'sandbox' }, { token: s.token })
    expect((await notify(wx.notification({ out_trade_no: sandboxOp, amount: { total: 3000 } }))).statusCode).toBe(404)
    // other events are acknowledged and change nothing
    expect((await notify(wx.notification({ out_trade_no: opId, amount: { total: 3000 } }, { eventType: 'TRANSACTION.CLOSED' }))).statusCode).toBe(204)
    expect(await cash()).toBe(before)
    expect(await status(opId)).toBe('created')
  })

  test('a signed notification whose transaction WeChat Pay could not have sent is a 400 FAIL, never a 500; nothing settled', async () => {
    // found by the schema fuzz: a null resource, a non-string or oversized transaction_id and a NUL in
    // out_trade_no reached the database (TypeError, a SQLite binding error, PostgreSQL 22001/22021)
    const opId = await order('wechat_jsapi', 4200)
    const before = await cash()
    const tx = { appid: PAY.appId, mchid: PAY.mchId, out_trade_no: opId, transaction_id: '4200001234202603011234567890', trade_state: 'SUCCESS', amount: { total: 4200 } }
    const signed = (plain: string, eventType = 'TRANSACTION.SUCCESS') => {
      const nonce = 'fuzzrepro123'
      const body = JSON.stringify({
        id: 'x', event_type: eventType, resource_type: 'encrypt-resource',
        resource: { algorithm: 'AEAD_AES_256_GCM', ciphertext: encryptResource(PAY.apiV3Key, plain, nonce, 'transaction'), associated_data: 'transaction', nonce }
      })
      return { headers: wx.sign(body), body }
    }
    const cases: Array<[string, string, RegExp]> = [
      ['null resource', 'null', /not a transaction/],
      ['array resource', '[]', /not a transaction/],
      ['object transaction_id', JSON.stringify({ ...tx, transaction_id: { a: 1 } }), /transaction_id/],
      ['array transaction_id', JSON.stringify({ ...tx, transaction_id: ['4200'] }), /transaction_id/],
      ['boolean transaction_id', JSON.stringify({ ...tx, transaction_id: true }), /transaction_id/],
      ['transaction_id too long for its column', JSON.stringify({ ...tx, transaction_id: '4'.repeat(65) }), /transaction_id/],
      ['deep transaction_id', JSON.stringify({ ...tx, transaction_id: JSON.parse('['.repeat(3000) + ']'.repeat(3000)) }), /transaction_id/],
      ['NUL in out_trade_no', JSON.stringify({ ...tx, out_trade_no: `${opId}\u0000` }), /out_trade_no/],
      ['object out_trade_no', JSON.stringify({ ...tx, out_trade_no: { no: opId } }), /out_trade_no/],
      ['no trade_state', JSON.stringify({ ...tx, trade_state: undefined }), /trade_state/],
      ['string amount', JSON.stringify({ ...tx, amount: '4200' }), /amount/]
    ]
    for (const [what, plain, reason] of cases) {
      const res = await notify(signed(plain))
      expect({ what, status: res.statusCode, body: res.json() }).toEqual({ what, status: 400, body: { code: 'FAIL', message: expect.stringMatching(reason) } })
    }
    // a refund event is read as a refund (withdrawals): one without out_refund_no is refused before the database
    const refund = await notify(signed('{"refund_status":"SUCCESS"}', 'REFUND.SUCCESS'))
    expect({ status: refund.statusCode, body: refund.json() }).toEqual({ status: 400, body: { code: 'FAIL', message: 'refund has no valid out_refund_no' } })
    // another event's resource is not a transaction and is acknowledged unread
    expect((await notify(signed('{"coupon_id":"1"}', 'COUPON.USE'))).statusCode).toBe(204)
    expect(await cash()).toBe(before)
    expect(await status(opId)).toBe('created')
    // the same transaction, well-formed, settles
    expect((await notify(signed(JSON.stringify(tx)))).statusCode).toBe(204)
    expect(await cash()).toBe(before + 4200)
  })

  test('a lost notification: asking for the order queries WeChat Pay and settles it once', async () => {
    const opId = await order('wechat_h5', 7700)
    await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    const before = await cash()
    expect((await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: s.token })).body.data.status).toBe('created')
    wx.paid.add(opId)
    expect((await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: s.token })).body.data.status).toBe('paid')
    expect((await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: s.token })).body.data.status).toBe('paid')
    expect((await notify(wx.notification({ out_trade_no: opId, amount: { total: 7700 } }))).statusCode).toBe(204)
    expect(await cash()).toBe(before + 7700)
  })

  test('cancelPay closes the order at WeChat Pay; if the shopper paid meanwhile, it is settled instead', async () => {
    const opId = await order('wechat_jsapi', 1500)
    await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })
    const canceled = await post(t.app, '/generalOrder/cancelPay', { opId }, { token: s.token })
    expect(canceled.body.data.status).toBe('canceled')
    expect(wx.closed.has(opId)).toBe(true)
    // money taken for a canceled order (paid just before closing) is still credited
    const before = await cash()
    expect((await notify(wx.notification({ out_trade_no: opId, amount: { total: 1500 } }))).statusCode).toBe(204)
    expect(await cash()).toBe(before + 1500)
    const paidMeanwhile = await order('wechat_jsapi', 1600)
    await post(t.app, '/generalOrder/getPaymentParam', { opId: paidMeanwhile }, { token: s.token })
    wx.paid.add(paidMeanwhile)
    const refused = await post(t.app, '/generalOrder/cancelPay', { opId: paidMeanwhile }, { token: s.token })
    expect(refused.body).toMatchObject({ code: 422, data: { status: 'paid' } })
    expect(await cash()).toBe(before + 1500 + 1600)
  })
})

describe.each(testDialects())('WeChat Pay not configured on %s', (dialect) => {
  test('the notification route answers 404 FAIL; the channels are not offered', async () => {
    const t = await createTestApp(dialect)
    try {
      const res = await t.app.inject({ method: 'POST', url: `${PREFIX}/generalOrder/notify/wechat`, payload: '{}', headers: { 'content-type': 'application/json' } })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ code: 'FAIL', message: 'WeChat Pay is not configured' })
      const methods = (await get(t.app, '/generalOrder/payMethod')).body.data.map((m: { channel: string }) => m.channel)
      expect(methods).toEqual(['sandbox'])
    } finally {
      await t.close()
    }
  })
})
