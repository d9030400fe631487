/**
 * The AI calls (types/ai.ts) against a local fake of a Dify chat app's API (test/support/providers/
 * dify.js, which checks the key, the body and whose conversation it is): each call's fields arrive as
 * the adapter maps them; the provider's user is always the caller's account, so nobody continues
 * another account's conversation; translations ask in words; refusals and outages are told apart;
 * bad input is a 400 by field, anonymous callers get 401; without a key, "not configured".
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import * as dify from '../support/providers/dify'
import { DifyClient } from '../../server/src/providers/dify'
import { ProviderRefusedError, ProviderUnavailableError } from '../../server/src/providers/errors'
import { translationQuery } from '../../server/src/routes/ai'

describe('the Dify adapter against the fake', () => {
  let fake: Awaited<ReturnType<typeof dify.start>>
  beforeAll(async () => { fake = await dify.start() })
  afterAll(async () => { await fake.close() })

  test('a blocking chat message, files by URL, the answer read', async () => {
    const c = new DifyClient(fake.url, dify.KEY)
    const a = await c.chat({ query: 'hello', user: 'shop-user-1', files: [{ type: 'image', transfer_method: 'remote_url', url: 'https://shop.example/media/u/a.png' }] })
    expect(a.answer).toBe('AI answer to: hello (images: https://shop.example/media/u/a.png)')
    expect(fake.calls.at(-1)).toMatchObject({ query: 'hello', response_mode: 'blocking', user: 'shop-user-1', inputs: {}, conversation_id: '' })
    const again = await c.chat({ query: 'more', user: 'shop-user-1', conversationId: a.conversationId })
    expect(again.conversationId).toBe(a.conversationId)
  })

  test('a wrong key and a bad parameter are refusals with the provider\'s code; an outage is not', async () => {
    await expect(new DifyClient(fake.url, 'wrong').chat({ query: 'x', user: 'u' })).rejects.toMatchObject({ provider: 'ai', status: 'unauthorized' })
    await expect(new DifyClient(fake.url, dify.KEY).chat({ query: 'x', user: 'u', conversationId: 'not-a-conversation' })).rejects.toBeInstanceOf(ProviderRefusedError)
    fake.next = 'http500'
    await expect(new DifyClient(fake.url, dify.KEY).chat({ query: 'x', user: 'u' })).rejects.toBeInstanceOf(ProviderUnavailableError)
    fake.next = { json: { event: 'message' } }
    await expect(new DifyClient(fake.url, dify.KEY).chat({ query: 'x', user: 'u' })).rejects.toBeInstanceOf(ProviderUnavailableError)
  })
})

describe.each(testDialects())('the AI calls on %s', (dialect) => {
  let t: TestApp
  let fake: Awaited<ReturnType<typeof dify.start>>
  let a: string
  let b: string
  const ask = (token: string, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })

  beforeAll(async () => {
    fake = await dify.start()
    t = await createTestApp(dialect, { env: dify.envFor(fake) })
    const ua = await makeUser(t.db, t.clock)
    const ub = await makeUser(t.db, t.clock)
    a = await loginToken(t.app, ua.user_name!, ua.password)
    b = await loginToken(t.app, ub.user_name!, ub.password)
  })
  afterAll(async () => { await t?.close(); await fake.close() })

  test('AiAnalysis: the prompt and the query arrive, images by URL; the provider sees the account, not the client\'s user', async () => {
    const r = await ask(a, '/api/AiAnalysis', {
      prompt: 'Write one sentence for a shop page.', query: 'A series of six space travellers', conversation_id: '', user: 'wx-app-id',
      files: [{ type: 'image', transfer_method: 'remote_url', url: 'https://shop.example/media/u/abc.png' }]
    })
    expect(r.body).toMatchObject({ code: 200, data: { conversationId: expect.any(String), messageId: expect.any(String) } })
    expect(r.body.data.answer).toContain('Write one sentence for a shop page.\n\nA series of six space travellers')
    const call = fake.calls.at(-1)!
    expect(call.inputs).toEqual({ prompt: 'Write one sentence for a shop page.' })
    expect(call.user).toMatch(/^shop-user-\d+$/)
    expect(call.user).not.toBe('wx-app-id')
    // another account cannot continue that conversation, whatever it claims to be
    const stolen = await ask(b, '/api/AiAnalysis', { query: 'and then?', conversation_id: r.body.data.conversationId, user: call.user })
    expect(stolen.body).toMatchObject({ code: 422, data: { provider: 'ai', status: 'not_found' } })
    expect((await ask(a, '/api/AiAnalysis', { query: 'and then?', conversation_id: r.body.data.conversationId })).body.code).toBe(200)
  })

  test('textTransform asks for a translation in words; text2text and questionRecognize map their fields', async () => {
    const tr = await ask(a, '/api/textTransform', { query: '星际旅人', from: 'zh', to: 'en' })
    expect(tr.body).toMatchObject({ code: 200, data: { answer: 'Star Travellers' } })
    expect(fake.calls.at(-1)!.query).toBe(translationQuery('星际旅人', 'zh', 'en'))
    expect((await ask(a, '/api/textTransform', { query: 'Navigator', from: 'auto', to: 'zh' })).body.data.answer).toBe('领航员')
    const rw = await ask(a, '/api/text/text2text', { text: 'buy now', prompt: 'Make it polite.' })
    expect(rw.body.data.answer).toBe('AI answer to: Make it polite.\n\nbuy now')
    const q = await ask(a, '/api/questionRecognize', { query: 'What is asked?', files: [{ type: 'image', transfer_method: 'remote_url', url: 'https://shop.example/s.png' }] })
    expect(q.body.data.answer).toBe('AI answer to: What is asked? (images: https://shop.example/s.png)')
  })

  test('bad input by field, before the provider hears of it; anonymous 401; 20 a minute', async () => {
    const before = fake.calls.length
    for (const [url, body, field] of [
      ['/api/AiAnalysis', { query: '' }, 'query'],
      ['/api/AiAnalysis', { query: 'x'.repeat(4001) }, 'query'],
      ['/api/AiAnalysis', { query: 'x', files: [{ type: 'image', transfer_method: 'local_file', url: 'https://a.b/c.png' }] }, 'files.0.transfer_method'],
      ['/api/AiAnalysis', { query: 'x', files: [{ type: 'image', transfer_method: 'remote_url', url: 'file:///etc/passwd' }] }, 'files.0.url'],
      ['/api/AiAnalysis', { query: 'x', conversation_id: '../../x' }, 'conversation_id'],
      ['/api/textTransform', { query: 'x', from: 'fr', to: 'en' }, 'from'],
      ['/api/text/text2text', { text: 'x', conversationId: 'a b' }, 'conversationId']
    ] as const) {
      const r = await ask(a, url, body, 'zh')
      expect([url, field, r.body.code, r.body.data?.field]).toEqual([url, field, 400, field])
    }
    expect(fake.calls.length).toBe(before)
    expect((await post(t.app, '/api/AiAnalysis', { query: '' })).body.code).toBe(401)
    const u = await makeUser(t.db, t.clock)
    const c = await loginToken(t.app, u.user_name!, u.password)
    for (let i = 0; i < 20; i++) expect((await ask(c, '/api/text/text2text', { text: `n${i}` })).body.code).toBe(200)
    expect((await ask(c, '/api/text/text2text', { text: 'one more' })).body.code).toBe(429)
  })

  test('an outage of the provider is a 502 naming it; nothing else breaks', async () => {
    fake.next = 'garbage'
    const r = await ask(a, '/api/textTransform', { query: 'x', from: 'en', to: 'zh' }, 'zh')
    expect(r.status).toBe(502)
    expect(r.body).toMatchObject({ code: 502, data: { provider: 'ai' }, message: 'AI 服务暂时不可用，请稍后再试' })
  })
})

test('without AI_API_KEY the calls say the AI is not configured', async () => {
  const t = await createTestApp('sqlite')
  try {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const r = await post(t.app, '/api/textTransform', { query: '你好', from: 'zh', to: 'en' }, { token, lang: 'en' })
    expect(r.body).toEqual({ code: 422, message: 'The AI service is not available in this shop', data: { provider: 'ai' } })
  } finally {
    await t.close()
  }
})
