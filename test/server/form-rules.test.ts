/**
 * Issue 21 (items 10, 11, 12, 15) on SQLite and PostgreSQL: settings that contradict each other are
 * refused together (the shop settings, the spending limits), naming the field as the form labels it,
 * with money in yuan, in zh and en, and nothing is saved; a new password equal to the current one is
 * refused; deleting the account can be checked (password or code, then what stands in the way) before
 * the app asks for confirmation, without deleting or using the code up; and a sweep of bad input over
 * the settings, limits, address and security routes finds no wire name, no cents and no English word
 * in a Chinese message.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { startSmtp, type FakeSmtp } from './support/fakes'
import { makeShopper } from './support/shop'
import { DEFAULT_SHOP_SETTINGS } from '../../types/limits'
import { formatYuan } from '../../server/src/core/money'
import { fieldLabel, presentParams, tidyZh } from '../../server/src/i18n/fields'

test('labels, yuan and the zh spacing', () => {
  expect(formatYuan(500000)).toBe('¥5,000.00')
  expect(formatYuan(5)).toBe('¥0.05')
  expect(formatYuan(100_000_000)).toBe('¥1,000,000.00')
  expect(fieldLabel('zh', '/api/security/limits', 'daily')).toBe('每日限额')
  expect(fieldLabel('en', '/dev-api/api/addressSave', 'name')).toBe('Receiver')
  // a name means what its route says: `name` elsewhere is not a recipient
  expect(fieldLabel('zh', '/api/editor/seriesSave', 'name')).toBe('name')
  expect(presentParams('en', '/api/security/limits', { field: 'monthly', limit: 100_000_000 })).toEqual({ field: 'Monthly limit', limit: '¥1,000,000.00' })
  // a count is not money
  expect(presentParams('zh', '/api/operator/settingsSave', { field: 'shipFreeFromItems', limit: 50 })).toEqual({ field: '满几件包邮', limit: 50 })
  expect(tidyZh('每日限额 不能大于 ¥1.00', '每日限额')).toBe('每日限额不能大于 ¥1.00')
  expect(tidyZh('必须提供 收货人', '收货人')).toBe('必须提供收货人')
  expect(tidyZh('必须提供 name', 'name')).toBe('必须提供 name')
  // a space elsewhere (in a quoted name) stays
  expect(tidyZh('标题（中文） 未填写：星际 旅人', '标题（中文）')).toBe('标题（中文）未填写：星际 旅人')
})

/** What a person must never read in a refusal. */
function wrongWords (message: string, lang: 'zh' | 'en', wireNames: string[]): string[] {
  const found: string[] = []
  // a camelCase wire name anywhere; a plain one ("daily", "phone") where a label would stand: at the
  // start (labels are capitalised in en) or anywhere in zh
  for (const name of wireNames) {
    const at = /[A-Z]/.test(name) || lang === 'zh' ? new RegExp(`\\b${name}\\b`) : new RegExp(`^${name}\\b`)
    if (at.test(message)) found.push(`wire name ${name}`)
  }
  // a bare number of 4 or more digits, not part of a ¥ amount, is cents (or a key)
  for (const m of message.replace(/¥[\d,]+\.\d{2}/g, '').matchAll(/\d{4,}/g)) found.push(`number ${m[0]}`)
  if (lang === 'zh') for (const m of message.matchAll(/[A-Za-z]{3,}/g)) found.push(`English ${m[0]}`)
  return found
}

describe.each(testDialects())('form rules on %s', (dialect) => {
  let t: TestApp
  let smtp: FakeSmtp
  let operator: string
  beforeAll(async () => {
    smtp = await startSmtp()
    t = await createTestApp(dialect, { fakes: { smtp } })
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    operator = await loginToken(t.app, op.user_name!, op.password)
  })
  afterAll(async () => {
    await t.close()
    await smtp.close()
  })

  const settings = async () => (await post(t.app, '/api/operator/settings', {}, { token: operator })).body.data
  const audits = async () => (await t.db.selectFrom('audit_log').select('id').where('action', '=', 'settings.update').execute()).length

  test('a smallest withdrawal above the daily maximum is refused, naming the changed one, and nothing is saved', async () => {
    const before = await settings()
    const auditsBefore = await audits()
    const refuse = async (body: object, lang: string) => {
      const r = await post(t.app, '/api/operator/settingsSave', body, { token: operator, lang })
      expect(r.body.code).toBe(400)
      return r.body
    }
    // the case of the issue: ¥6,000 minimum against the ¥5,000 daily maximum, with another change beside it
    const zh = await refuse({ withdrawMinCents: 600000, shipFeeCents: 500 }, 'zh-CN')
    expect(zh).toEqual({ code: 400, message: '最低提现金额不能高于每人每天最多提现（¥5,000.00），否则任何提现都会被拒绝', data: { field: 'withdrawMinCents' } })
    const en = await refuse({ withdrawMinCents: 600000 }, 'en')
    expect(en.message).toBe('Smallest withdrawal cannot be above the daily withdrawal maximum (¥5,000.00): every withdrawal would be refused')
    // lowering the maximum under the stored minimum names the maximum
    await post(t.app, '/api/operator/settingsSave', { withdrawMinCents: 20000 }, { token: operator })
    const low = await refuse({ withdrawDailyMaxCents: 10000 }, 'zh')
    expect([low.message, low.data]).toEqual(['每人每天最多提现不能低于最低提现金额（¥200.00），否则任何提现都会被拒绝', { field: 'withdrawDailyMaxCents' }])
    // both at once, contradicting each other: the minimum is named
    expect((await refuse({ withdrawMinCents: 30000, withdrawDailyMaxCents: 20000 }, 'en')).data).toEqual({ field: 'withdrawMinCents' })
    // nothing of a refused save was kept, and only the accepted save was audited
    expect(await settings()).toEqual({ ...before, withdrawMinCents: 20000 })
    expect(await audits()).toBe(auditsBefore + 1)
    // equal is fine; both moved together is fine
    expect((await post(t.app, '/api/operator/settingsSave', { withdrawMinCents: 600000, withdrawDailyMaxCents: 600000 }, { token: operator })).body.code).toBe(200)
    expect((await post(t.app, '/api/operator/settingsSave', { withdrawMinCents: DEFAULT_SHOP_SETTINGS.withdrawMinCents, withdrawDailyMaxCents: DEFAULT_SHOP_SETTINGS.withdrawDailyMaxCents }, { token: operator })).body.code).toBe(200)
  })

  test('a setting out of range names the field as labelled, money in yuan', async () => {
    const r = await post(t.app, '/api/operator/settingsSave', { withdrawDailyMaxCents: 100_000_001 }, { token: operator, lang: 'zh' })
    expect(r.body).toEqual({ code: 400, message: '每人每天最多提现不能大于 ¥1,000,000.00', data: { field: 'withdrawDailyMaxCents', rule: 'maximum' } })
    const n = await post(t.app, '/api/operator/settingsSave', { shipFreeFromItems: 0 }, { token: operator, lang: 'en' })
    expect(n.body.message).toBe('Free shipping from (items) must be at least 1')
  })

  test('a daily limit above the monthly one is refused, whichever moved, and nothing is saved', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const limits = (body: object, lang = 'zh') => post(t.app, '/api/security/limits', body, { token: s.token, lang })
    const both = await limits({ daily: 200000, monthly: 100000 })
    expect(both.body).toEqual({ code: 400, message: '每日限额不能高于每月限额（¥1,000.00）', data: { field: 'daily' } })
    expect((await post(t.app, '/api/security/overview', {}, { token: s.token })).body.data.limits.daily.cents).toBeNull()
    expect((await limits({ daily: 50000, monthly: 100000 })).body.code).toBe(200)
    // lowering the monthly under the daily one
    const monthly = await limits({ monthly: 40000 }, 'en')
    expect(monthly.body).toEqual({ code: 400, message: 'Monthly limit cannot be below the daily limit (¥500.00)', data: { field: 'monthly' } })
    // a raise waiting 24 hours counts as it will stand: daily raised to 900 (pending), monthly 800 contradicts it
    expect((await limits({ daily: 90000 })).body.code).toBe(200)
    expect((await limits({ monthly: 80000 })).body.data).toEqual({ field: 'monthly' })
    const view = (await post(t.app, '/api/security/overview', {}, { token: s.token })).body.data.limits
    expect([view.daily.cents, view.daily.pending?.cents, view.monthly.cents]).toEqual([50000, 90000, 100000])
    // removing the monthly limit lets any daily one stand
    expect((await limits({ daily: 300000, monthly: null })).body.code).toBe(200)
  })

  test('a new password equal to the current one is refused and changes nothing', async () => {
    const u = await makeUser(t.db, t.clock, { password: 'same-pass' })
    const token = await loginToken(t.app, u.user_name!, u.password)
    const other = await loginToken(t.app, u.user_name!, u.password)
    const r = await post(t.app, '/api/security/password', { currentPassword: 'same-pass', newPassword: 'same-pass' }, { token, lang: 'zh' })
    expect(r.body).toEqual({ code: 400, message: '新密码不能与当前密码相同', data: { field: 'newPassword' } })
    // the other session was not ended
    expect((await post(t.app, '/api/walletBalance', {}, { token: other })).body.code).toBe(200)
    // a wrong current password is still the first thing said
    const wrong = await post(t.app, '/api/security/password', { currentPassword: 'not-it', newPassword: 'not-it' }, { token, lang: 'en' })
    expect([wrong.body.code, wrong.body.data]).toEqual([422, { field: 'currentPassword' }])
  })

  test('deleting: a check says the password or code is wrong, or what stands in the way, and deletes nothing', async () => {
    const u = await makeUser(t.db, t.clock, { password: 'del-pass' })
    const token = await loginToken(t.app, u.user_name!, u.password)
    const wrong = await post(t.app, '/api/security/deleteAccount', { password: 'nope', check: true }, { token, lang: 'zh' })
    expect([wrong.body.code, wrong.body.message, wrong.body.data]).toEqual([422, '当前密码不正确', { field: 'password' }])
    const fine = await post(t.app, '/api/security/deleteAccount', { password: 'del-pass', check: true }, { token })
    expect(fine.body).toMatchObject({ code: 200, data: { ended: 0 } })
    // still there, still logged in
    expect((await post(t.app, '/api/walletBalance', {}, { token })).body.code).toBe(200)
    // prop cards would lapse: the check says so as the deletion would
    await t.db.insertInto('prop_inventory').values({ user_id: Number(u.id), kind: 'hint', count: 1, updated_at: new Date(t.clock.now()).toISOString() }).execute()
    const lapse = await post(t.app, '/api/security/deleteAccount', { password: 'del-pass', check: true }, { token })
    expect(lapse.body.data).toEqual({ reason: 'forfeit', creditCents: 0, prizes: 0, cards: 1 })
    expect((await post(t.app, '/api/security/deleteAccount', { password: 'del-pass', check: true, forfeit: true }, { token })).body.code).toBe(200)
    expect((await post(t.app, '/api/security/deleteAccount', { password: 'del-pass', forfeit: true }, { token })).body).toMatchObject({ code: 200, data: { ended: 1 } })
  })

  test('deleting an account without a password: the check does not use the code up', async () => {
    const address = `chk.${Date.now().toString(36)}@example.com`
    const u = await makeUser(t.db, t.clock, { email: address })
    const token = await loginToken(t.app, u.user_name!, u.password)
    await t.db.updateTable('users').set({ password_hash: null }).where('id', '=', Number(u.id)).execute()
    expect((await post(t.app, '/api/security/reauthCode', { via: 'email' }, { token, ip: nextIp() })).body.code).toBe(200)
    const code = smtp.lastCode(address)
    const bad = await post(t.app, '/api/security/deleteAccount', { reauth: { via: 'email', code: code === '000000' ? '111111' : '000000' }, check: true }, { token })
    expect([bad.body.code, bad.body.data]).toEqual([422, { field: 'code' }])
    expect((await post(t.app, '/api/security/deleteAccount', { reauth: { via: 'email', code }, check: true }, { token })).body.code).toBe(200)
    expect((await post(t.app, '/api/security/deleteAccount', { reauth: { via: 'email', code } }, { token })).body).toMatchObject({ code: 200, data: { ended: 1 } })
  })

  test('sweep: every refusal of bad form input names fields as labelled, money in yuan, in the asked language', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const u = await makeUser(t.db, t.clock, { password: 'sweep-pass' })
    const pwToken = await loginToken(t.app, u.user_name!, u.password)
    const cases: Array<[string, string, object]> = [
      ['/api/operator/settingsSave', operator, { shipFeeCents: -500 }],
      ['/api/operator/settingsSave', operator, { shipFeeCents: 100001 }],
      ['/api/operator/settingsSave', operator, { withdrawMinCents: 0 }],
      ['/api/operator/settingsSave', operator, { withdrawMinCents: 10_000_001 }],
      ['/api/operator/settingsSave', operator, { withdrawDailyMaxCents: 100_000_001 }],
      ['/api/operator/settingsSave', operator, { withdrawMinCents: 600000 }],
      ['/api/operator/settingsSave', operator, { hintCardPriceCents: 20001 }],
      ['/api/operator/settingsSave', operator, { xrayCardPriceCents: -1 }],
      ['/api/operator/settingsSave', operator, { shipFreeFromItems: 51 }],
      ['/api/operator/settingsSave', operator, { shipFreeFromItems: 2.5 }],
      ['/api/operator/settingsSave', operator, { shipFeeCents: '5' }],
      ['/api/security/limits', s.token, { daily: 100_000_001 }],
      ['/api/security/limits', s.token, { daily: -1 }],
      ['/api/security/limits', s.token, { monthly: 1.5 }],
      ['/api/security/limits', s.token, { daily: 200000, monthly: 100000 }],
      ['/api/addressSave', s.token, { name: '', phone: '13800000000', region: '广东省 深圳市 福田区', detail: '1 号' }],
      ['/api/addressSave', s.token, { name: '张三', phone: '+86 138 0000 0000', region: '广东省 深圳市 福田区', detail: '1 号' }],
      ['/api/addressSave', s.token, { name: '张三', phone: '13800000000', region: ' ', detail: '1 号' }],
      ['/api/addressSave', s.token, { name: '张三', phone: '13800000000', region: '广东省', detail: '' }],
      ['/api/addressSave', s.token, { name: 'x'.repeat(51), phone: '13800000000', region: '广东省', detail: '1 号' }],
      ['/api/addressSave', s.token, { name: '张三', region: '广东省', detail: '1 号' }],
      ['/api/security/password', pwToken, { currentPassword: 'sweep-pass', newPassword: 'ab' }],
      ['/api/security/password', pwToken, { currentPassword: 'sweep-pass', newPassword: 'sweep-pass' }],
      ['/api/security/password', pwToken, { currentPassword: 'wrong-one', newPassword: 'another-1' }],
      ['/api/security/password', pwToken, { newPassword: 'another-1' }],
      ['/api/security/bindCode', pwToken, { phone: '+86 138 0000 0000' }],
      ['/api/security/bindCode', pwToken, { email: 'not-an-address' }],
      ['/api/security/bind', pwToken, { phone: '13800000000', code: '12' }],
      ['/api/security/deleteAccount', pwToken, { password: 'wrong-one', check: true }],
      ['/api/security/deleteAccount', pwToken, { check: true }],
      ['/api/security/birthDateCorrection', pwToken, { birthDate: '1990-5-1', reason: 'typo' }],
      ['/api/security/birthDateCorrection', pwToken, { birthDate: '1990-05-01', reason: '' }]
    ]
    const problems: string[] = []
    for (const lang of ['zh', 'en'] as const) {
      for (const [url, token, body] of cases) {
        const r = await post(t.app, url, body, { token, lang, ip: nextIp() })
        if (r.body.code === 200) { problems.push(`${lang} ${url} ${JSON.stringify(body)} was accepted`); continue }
        if (r.status >= 500) problems.push(`${lang} ${url} ${JSON.stringify(body)}: HTTP ${r.status}`)
        const wire = [...Object.keys(body), 'reauth', 'password', 'phone', 'email', 'code', 'birthDate', 'reason']
        for (const w of wrongWords(r.body.message, lang, wire)) problems.push(`${lang} ${url} ${JSON.stringify(body)}: "${r.body.message}" has ${w}`)
      }
    }
    expect(problems).toEqual([])
    // nothing of it was saved
    expect(await settings()).toEqual(DEFAULT_SHOP_SETTINGS)
    expect((await post(t.app, '/api/addressList', {}, { token: s.token })).body.data).toEqual([])
  })
})
