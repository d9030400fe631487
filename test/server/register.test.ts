/** POST /login/register?table=user: user name, phone (SMS code) or e-mail (mail code) with a password. */
import { testDialects } from './support/db'
import { createTestApp, get, nextIp, post, type TestApp } from './support/app'
import { startSms, startSmtp, type FakeSms, type FakeSmtp } from './support/fakes'

const REGISTER = '/login/register?table=user'

describe.each(testDialects())('register on %s', (dialect) => {
  let t: TestApp
  let sms: FakeSms
  let smtp: FakeSmtp
  beforeAll(async () => {
    sms = await startSms()
    smtp = await startSmtp()
    t = await createTestApp(dialect, { fakes: { sms, smtp } })
  })
  afterAll(async () => {
    await t.close()
    await sms.close()
    await smtp.close()
  })

  test('by user name: logged in at once, then password login works; the hash is argon2id', async () => {
    const r = await post(t.app, REGISTER, { user_name: 'newbie', password: 'pass123' }, { ip: nextIp() })
    expect(r.body.code).toBe(200)
    expect(r.body.data.user).toMatchObject({ userName: 'newbie', nickname: 'newbie', role: 'shopper', phone: null, email: null })
    expect((await get(t.app, '/getUserInfo', { token: r.body.data.token })).body.data.userName).toBe('newbie')
    const login = await post(t.app, '/login/passwd', { user_name: 'newbie', password: 'pass123' }, { ip: nextIp() })
    expect(login.body.data.user.id).toBe(r.body.data.user.id)
    const row = await t.db.selectFrom('users').select('password_hash').where('user_name', '=', 'newbie').executeTakeFirstOrThrow()
    expect(row.password_hash).toMatch(/^\$argon2id\$/)
  })

  test('a taken user name is a 409, whatever its case', async () => {
    await post(t.app, REGISTER, { user_name: 'Taken', password: 'pass123' }, { ip: nextIp() })
    const r = await post(t.app, REGISTER, { user_name: 'taken', password: 'other123' }, { ip: nextIp(), lang: 'zh' })
    expect(r.body).toEqual({ code: 409, message: '用户名已被使用', data: null })
  })

  test('by phone: needs the SMS code; a wrong code is a 400 on `code`', async () => {
    const phone = '13700001111'
    const missing = await post(t.app, REGISTER, { phone, password: 'pass123' }, { ip: nextIp() })
    expect(missing.body).toMatchObject({ code: 400, message: 'code is required', data: { field: 'code' } })
    expect((await get(t.app, '/login/sms/code', { query: { phone }, ip: nextIp() })).body.code).toBe(200)
    const code = sms.lastCode(phone)
    const wrong = await post(t.app, REGISTER, { phone, password: 'pass123', code: code === '000000' ? '111111' : '000000' }, { ip: nextIp() })
    expect(wrong.body).toMatchObject({ code: 400, data: { field: 'code' } })
    const r = await post(t.app, REGISTER, { phone, password: 'pass123', code }, { ip: nextIp() })
    expect(r.body.data.user).toMatchObject({ phone, userName: null })
    expect((await post(t.app, '/login/passwd', { phone, password: 'pass123' }, { ip: nextIp() })).body.code).toBe(200)
  })

  test('by e-mail: needs the mail code; a registered address is a 409 only after the code proves it', async () => {
    const address = 'reg@example.com'
    await post(t.app, '/login/mail/sendCode', { phone: address }, { ip: nextIp() })
    const r = await post(t.app, REGISTER, { email: address, password: 'pass123', code: smtp.lastCode(address) }, { ip: nextIp() })
    expect(r.body.data.user.email).toBe(address)

    // someone without the code learns nothing about the address
    const probe = await post(t.app, REGISTER, { email: address, password: 'pass123', code: '123456' }, { ip: nextIp() })
    expect(probe.body).toMatchObject({ code: 400, data: { field: 'code' } })
    t.clock.advance(61_000)
    await post(t.app, '/login/mail/sendCode', { phone: address }, { ip: nextIp() })
    const dup = await post(t.app, REGISTER, { email: address, password: 'pass123', code: smtp.lastCode(address) }, { ip: nextIp() })
    expect(dup.body).toEqual({ code: 409, message: 'This e-mail address is already registered', data: null })
  })

  test('validation: table=user, one identifier, password 3-18, no unknown fields', async () => {
    expect((await post(t.app, '/login/register?table=users', { user_name: 'x1', password: 'pass123' })).body)
      .toMatchObject({ code: 400, data: { field: 'table' } })
    expect((await post(t.app, '/login/register', { user_name: 'x1', password: 'pass123' })).body)
      .toMatchObject({ code: 400, data: { field: 'table', rule: 'required' } })
    expect((await post(t.app, REGISTER, { password: 'pass123' }, { lang: 'zh' })).body.message).toBe('必须提供 user_name、phone 或 email 之一')
    expect((await post(t.app, REGISTER, { user_name: 'x1' }, { lang: 'zh' })).body.message).toBe('必须提供 password')
    expect((await post(t.app, REGISTER, { user_name: 'x1', password: 'pw' })).body).toMatchObject({ code: 400, data: { field: 'password' } })
    expect((await post(t.app, REGISTER, { user_name: 'x1', password: 'pass123', role: 'operator' })).body)
      .toMatchObject({ code: 400, data: { field: 'role', rule: 'additionalProperties' } })
  })
})
