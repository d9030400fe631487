/**
 * Text to speech with the local engine (espeak-ng from Debian; .ci/run installs it): Mandarin and
 * English come back as WAV files whose measured level is speech, not silence, served under /media/u/
 * byte for byte; the same text is stored once; bad input is a 400 by field; anonymous callers get 401;
 * with the engine off the call says it is not configured. The WAV header espeak-ng streams is fixed.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { EspeakEngine, fixWavSizes, wavDurationMs, type TtsEngine } from '../../server/src/providers/tts'
import { TTS_CONCURRENCY, voiceOf } from '../../server/src/routes/speech'

/** The RMS level of 16-bit PCM samples, 0..1. */
function rms (wav: Buffer): number {
  let i = 12
  while (i + 8 <= wav.length && wav.toString('ascii', i, i + 4) !== 'data') i += 8 + wav.readUInt32LE(i + 4)
  const start = i + 8
  let sum = 0
  let n = 0
  for (let j = start; j + 1 < wav.length; j += 2) { const v = wav.readInt16LE(j) / 32768; sum += v * v; n++ }
  return n ? Math.sqrt(sum / n) : 0
}

test('the engine is installed where the tests run (.ci/run installs espeak-ng)', () => {
  expect(EspeakEngine.available()).toBe(true)
})

test('a streamed WAV gets its real sizes; the voice follows the text', () => {
  const header = Buffer.alloc(48)
  header.write('RIFF', 0, 'ascii'); header.writeUInt32LE(0x7fffffff, 4); header.write('WAVE', 8, 'ascii')
  header.write('fmt ', 12, 'ascii'); header.writeUInt32LE(16, 16); header.writeUInt32LE(44100, 28)
  header.write('data', 36, 'ascii'); header.writeUInt32LE(0x7fffffff, 40)
  const fixed = fixWavSizes(header)
  expect(fixed.readUInt32LE(4)).toBe(40)
  expect(fixed.readUInt32LE(40)).toBe(4)
  expect(voiceOf('恭喜 you')).toBe('zh')
  expect(voiceOf('Congratulations')).toBe('en')
})

describe.each(testDialects())('text to speech on %s', (dialect) => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock)
    token = await loginToken(t.app, u.user_name!, u.password)
  })
  afterAll(async () => { await t?.close() })
  const tts = (body: unknown, o: { token?: string; lang?: string } = {}) => post(t.app, '/api/text/tts', body, { token: o.token ?? token, lang: o.lang, ip: nextIp() })

  test('Mandarin and English are spoken: WAV audio with a level well above silence, served back byte for byte', async () => {
    for (const [text, lang] of [['恭喜你抽中了隐藏款星灵', 'zh'], ['You opened two boxes: a rare Navigator and a regular Cook.', 'en']] as const) {
      const r = await tts({ text })
      expect(r.body).toMatchObject({ code: 200, data: { contentType: 'audio/wav', lang, engine: 'espeak-ng', url: expect.stringMatching(/^\/media\/u\/[0-9a-f]{64}\.wav$/) } })
      const served = await t.app.inject({ method: 'GET', url: r.body.data.url })
      expect(served.statusCode).toBe(200)
      expect(served.headers['content-type']).toBe('audio/wav')
      const wav = served.rawPayload
      expect(wav.length).toBe(r.body.data.bytes)
      expect(wav.toString('ascii', 0, 4)).toBe('RIFF')
      expect(wav.readUInt32LE(4)).toBe(wav.length - 8)
      expect(r.body.data.durationMs).toBe(wavDurationMs(wav))
      expect(r.body.data.durationMs).toBeGreaterThan(800)
      expect(rms(wav)).toBeGreaterThan(0.01)
    }
    // the same text twice is one stored file
    const a = await tts({ text: 'Hello' })
    const b = await tts({ text: 'Hello' })
    expect(a.body.data.url).toBe(b.body.data.url)
    // a forced voice
    expect((await tts({ text: 'Hello', lang: 'zh' })).body.data.lang).toBe('zh')
  }, 30000)

  test('bad input by field, nothing stored; anonymous 401 before the body is read', async () => {
    const count = async () => Number((await t.db.selectFrom('media').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    const before = await count()
    for (const [body, field] of [[{ text: '' }, 'text'], [{ text: 'x'.repeat(501) }, 'text'], [{ text: 'hi', lang: 'fr' }, 'lang'], [{ text: 'a\u0000b' }, 'text']] as const) {
      const r = await tts(body, { lang: 'zh' })
      expect([field, r.body.code, r.body.data?.field]).toEqual([field, 400, field])
    }
    expect((await post(t.app, '/api/text/tts', { text: '' })).body.code).toBe(401)
    expect(await count()).toBe(before)
  })
})

test('with the engine off, the call says text to speech is not configured', async () => {
  const t = await createTestApp('sqlite', { env: { TTS_ENGINE: 'off' } })
  try {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const r = await post(t.app, '/api/text/tts', { text: '你好' }, { token, lang: 'zh' })
    expect(r.body).toEqual({ code: 422, message: '这个商城暂不提供语音合成', data: { provider: 'tts' } })
  } finally {
    await t.close()
  }
})

/** The real engine, with a record of who was speaking when (the places are what the test looks at). */
class WatchedEngine implements TtsEngine {
  readonly name = 'espeak-ng'
  private readonly real = new EspeakEngine()
  private active: string[] = []
  readonly starts: string[] = []
  maxActive = 0
  maxOfOne = 0
  speak (text: string, lang: 'zh' | 'en'): Promise<Buffer> {
    const who = text.split(' ')[0]
    this.active.push(who)
    this.starts.push(who)
    this.maxActive = Math.max(this.maxActive, this.active.length)
    this.maxOfOne = Math.max(this.maxOfOne, this.active.filter(a => a === who).length)
    return this.real.speak(text, lang).finally(() => { this.active.splice(this.active.indexOf(who), 1) })
  }
}

describe.each(testDialects())('the engine shared fairly on %s', (dialect) => {
  test('one shopper\'s burst runs one voice at a time and another shopper is served after at most one of it', async () => {
    const engine = new WatchedEngine()
    const t = await createTestApp(dialect, { build: { tts: engine } })
    try {
      const a = await makeUser(t.db, t.clock)
      const b = await makeUser(t.db, t.clock)
      const [ta, tb] = [await loginToken(t.app, a.user_name!, a.password), await loginToken(t.app, b.user_name!, b.password)]
      const long = 'a ' + 'The shop reads the result of the draw aloud. '.repeat(8)
      const burst = Array.from({ length: 5 }, (_, i) => post(t.app, '/api/text/tts', { text: `${long} ${i}` }, { token: ta, ip: nextIp() }))
      // b asks once a's first voice is running
      while (!engine.starts.length) await new Promise(resolve => setTimeout(resolve, 5))
      const other = post(t.app, '/api/text/tts', { text: 'b Hello' }, { token: tb, ip: nextIp() })
      const answers = await Promise.all([...burst, other])
      expect(answers.map(r => r.body.code)).toEqual([200, 200, 200, 200, 200, 200])
      expect(engine.maxActive).toBeLessThanOrEqual(TTS_CONCURRENCY)
      expect(engine.maxOfOne).toBe(1)
      // b's voice started before a's second one
      expect(engine.starts.indexOf('b')).toBeLessThanOrEqual(1)
    } finally {
      await t.close()
    }
  })
})
