/**
 * Issue 48: development's stand-in mailer (LogMailer) only prints a mail in the server's log. The answers
 * that report a mail say so (complaint reply: mailed 'dev_log'; /common/mail/send: channel 'dev_log'), so
 * the operators' app never claims a mail reached anyone; a real mailer still answers 'sent' / 'mail'.
 */
import type { FastifyBaseLogger } from 'fastify'
import { LogMailer } from '../../server/src/providers/mail'
import type { MailMessage } from '../../server/src/providers/mail'
import { createTestApp, loginToken, makeUser, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { makeShopper, newKey } from './support/shop'

describe.each(testDialects())('mail only printed in the log on %s', (dialect) => {
  let dev: TestApp
  let real: TestApp
  const logged: MailMessage[] = []
  const delivered: string[] = []
  beforeAll(async () => {
    const log = { info: (o: { mail: MailMessage }) => { logged.push(o.mail) } } as unknown as FastifyBaseLogger
    dev = await createTestApp(dialect, { build: { mailer: new LogMailer(log) } })
    real = await createTestApp(dialect, { build: { mailer: { send: async m => { delivered.push(m.to) } } } })
  })
  afterAll(async () => {
    await dev.close()
    await real.close()
  })

  const operatorOf = async (t: TestApp) => {
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    return loginToken(t.app, op.user_name!, op.password)
  }
  const replyMailed = async (t: TestApp) => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const filed = await post(t.app, '/api/complaintCreate', { topic: 'other', text: 'Where is my parcel?', contact: 'reader@example.test', idempotencyKey: newKey() }, { token: s.token })
    expect(filed.body.code).toBe(200)
    const token = await operatorOf(t)
    const replied = await post(t.app, '/api/operator/complaintReply', { complaintId: filed.body.data.id, reply: 'It left today.', mailContact: true }, { token })
    expect(replied.body.code).toBe(200)
    return replied.body.data
  }

  test('a complaint reply: dev_log with the log stand-in (printed, nobody mailed), sent with a real mailer', async () => {
    const before = logged.length
    expect(await replyMailed(dev)).toMatchObject({ mailed: 'dev_log', complaint: { status: 'answered', reply: 'It left today.' } })
    expect(logged.slice(before).map(m => m.to)).toEqual(['reader@example.test'])
    expect(await replyMailed(real)).toMatchObject({ mailed: 'sent' })
    expect(delivered).toContain('reader@example.test')
  })

  test('/common/mail/send names its channel: dev_log with the log stand-in, mail with a real mailer', async () => {
    const send = async (t: TestApp) => (await post(t.app, '/common/mail/send', { title: 'T', content: 'C', mail: 'someone@example.org' }, { token: await operatorOf(t), lang: 'en' })).body
    expect(await send(dev)).toEqual({ code: 200, message: expect.any(String), data: { mail: 'someone@example.org', title: 'T', channel: 'dev_log' } })
    expect(logged.at(-1)?.to).toBe('someone@example.org')
    expect(await send(real)).toEqual({ code: 200, message: expect.any(String), data: { mail: 'someone@example.org', title: 'T', channel: 'mail' } })
  })
})
