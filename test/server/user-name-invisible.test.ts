/**
 * Invisible characters in user names (issue 48, the word list's class): "al\u200bice" reads as "alice"
 * on every screen, so it could be registered beside her and pose as her. Registration refuses such a
 * name (400 on user_name, nothing written); a login with one pasted finds the visible name's account,
 * while an account registered with one before keeps its own login. On SQLite and PostgreSQL.
 */
import { testDialects } from './support/db'
import { createTestApp, makeUser, nextIp, post, type TestApp } from './support/app'
import { INVISIBLE_RANGES, dropInvisibleChars, hasInvisibleChars, isInvisibleCodePoint } from '../../types/invisibleChars'

const REGISTER = '/login/register?table=user'

describe('the invisible-character table', () => {
  test('is exactly Default_Ignorable_Code_Point, Cc, Cf, Zl, Zp and U+2800 of the running Unicode', () => {
    const expected = /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u2800]/u
    const wrong: string[] = []
    for (let cp = 0; cp <= 0x10FFFF; cp++) {
      if (cp >= 0xD800 && cp <= 0xDFFF) continue
      if (expected.test(String.fromCodePoint(cp)) !== isInvisibleCodePoint(cp)) wrong.push(cp.toString(16))
    }
    expect(wrong).toEqual([])
    // sorted and apart, as isInvisibleCodePoint's early exit needs
    for (let i = 1; i < INVISIBLE_RANGES.length; i++) expect(INVISIBLE_RANGES[i][0]).toBeGreaterThan(INVISIBLE_RANGES[i - 1][1] + 1)
  })

  test('finds and drops them in text, astral ones included', () => {
    expect(hasInvisibleChars('alice')).toBe(false)
    expect(hasInvisibleChars('a😀b')).toBe(false)
    expect(hasInvisibleChars('a\u{E0041}b')).toBe(true)
    expect(dropInvisibleChars('a\u200b😀\u{E0041}b\u00ad')).toBe('a😀b')
  })
})

describe.each(testDialects())('invisible characters in user names on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  const register = (userName: string, lang: 'zh' | 'en' = 'en') =>
    post(t.app, REGISTER, { user_name: userName, password: 'secret-pw' }, { ip: nextIp(), lang })
  const login = (userName: string, password: string) =>
    post(t.app, '/login/passwd', { user_name: userName, password }, { ip: nextIp() })
  const userCount = async () => Number((await t.db.selectFrom('users').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

  test('a name with one is a 400 on user_name in zh and en, and nothing is written', async () => {
    const alice = `alice${dialect}`
    expect((await register(alice)).body.code).toBe(200)
    const before = await userCount()
    const hidden = ['\u200b', '\u00ad', '\u200c', '\u200d', '\u2060', '\ufeff', '\u202e', '\u2066', '\ufe0f', '\u3164', '\u2028', '\u2800', '\u{E0041}']
    for (const ch of hidden) {
      const name = `al${ch}ice${dialect}`
      expect((await register(name)).body).toEqual({
        code: 400,
        message: 'A user name cannot contain invisible characters (such as a zero-width space or a control character)',
        data: { field: 'user_name' }
      })
      // a name that is nothing but them is refused too, not stored as an empty-looking account
      expect((await register(`${ch}${ch}`)).body).toMatchObject({ code: 400, data: { field: 'user_name' } })
    }
    // controls were already refused by the schema, with its own message on the same field
    expect((await register(`al\u0007ice${dialect}`)).body).toMatchObject({ code: 400, data: { field: 'user_name' } })
    expect((await register(`bob\u200b${dialect}`, 'zh')).body).toEqual({
      code: 400, message: '用户名不能含有看不见的字符（如零宽空格、控制符）', data: { field: 'user_name' }
    })
    expect(await userCount()).toBe(before)
  })

  test('logging in with one pasted into the name enters the visible name\'s account; an old account holding one keeps its own login', async () => {
    const carol = await makeUser(t.db, t.clock, { user_name: `carol${dialect}`, password: 'carol-pw' })
    const pasted = await login(`car\u200bol\u2060${dialect}`, 'carol-pw')
    expect(pasted.body.code).toBe(200)
    expect(pasted.body.data.user.id).toBe(Number(carol.id))

    // registered before the rule: "da\u200bve" beside "dave"; each logs into its own account, never the other's
    const dave = await makeUser(t.db, t.clock, { user_name: `dave${dialect}`, password: 'dave-pw' })
    const oldDave = await makeUser(t.db, t.clock, { user_name: `da\u200bve${dialect}`, password: 'old-pw' })
    expect((await login(`da\u200bve${dialect}`, 'old-pw')).body.data.user.id).toBe(Number(oldDave.id))
    expect((await login(`da\u200bve${dialect}`, 'dave-pw')).body.code).toBe(401)
    expect((await login(`dave${dialect}`, 'dave-pw')).body.data.user.id).toBe(Number(dave.id))
    expect((await login(`dave${dialect}`, 'old-pw')).body.code).toBe(401)

    // a name that is only invisible characters finds nobody
    expect((await login('\u200b\u200b', 'carol-pw')).body.code).toBe(401)
  })
})
