/**
 * Sessions and writes that outlive what should end them (issue 21, items 4 and 5), on SQLite and
 * PostgreSQL.
 *
 * A login verifies its password (argon2, ~30 ms) or code outside any transaction, then creates the
 * session. The tests hold a login right there (a gate around the step) while the account is deleted, or
 * its password changed, then let it go on: it must get no session. Before the fix it got one, and the
 * token of the deleted account saved an address and topped up money.
 *
 * A deletion racing a free parcel, an address, a withdrawal and a birth date (bounded parallel rounds):
 * either the deletion is refused (the parcel or withdrawal blocks it) or the other write is (401), and a
 * deleted account keeps no street, address or birth date. Before the fix, PostgreSQL let both succeed
 * and kept the parcel's street.
 */
import { sql } from 'kysely'
import { testDialects } from './support/db'
import { createTestApp, get, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { startSms, startWeChat, type FakeSms, type FakeWeChat } from './support/fakes'
import { buy, currentCaseId, makeSeries, newKey, topUp, type Shopper } from './support/shop'
import { invariantViolations } from './support/invariants'
import * as passwords from '../../server/src/security/passwords'
import * as identities from '../../server/src/domain/account/identities'
import * as wallet from '../../server/src/domain/money/wallet'
import { ApiFailure } from '../../server/src/core/errors'
import { deleteAccount } from '../../server/src/domain/account/accountDeletion'
import { saveSettings } from '../../server/src/domain/ops/settings'
import { hashToken } from '../../server/src/security/tokens'

/** Holds the next call that `arm` is given until `release`; `reached` resolves once it is held. */
function gate () {
  let armed = false
  let open: () => void = () => {}
  const opened = new Promise<void>(resolve => { open = resolve })
  let reach: () => void = () => {}
  const reached = new Promise<void>(resolve => { reach = resolve })
  return {
    reached,
    arm: () => { armed = true },
    release: () => open(),
    /** Called by the spied step after its real work: the armed call waits here (once). */
    hold: async () => {
      if (!armed) return
      armed = false
      reach()
      await opened
    }
  }
}

let phoneCounter = 0
const nextPhone = () => `137${String(10_000_000 + ++phoneCounter).slice(-8)}`

describe.each(testDialects())('logins in flight on %s', (dialect) => {
  let t: TestApp
  let sms: FakeSms
  let wx: FakeWeChat
  beforeAll(async () => {
    sms = await startSms()
    wx = await startWeChat()
    t = await createTestApp(dialect, { fakes: { sms, wechat: wx } })
  })
  afterAll(async () => {
    await t.close()
    await sms.close()
    await wx.close()
  })
  afterEach(() => { jest.restoreAllMocks() })

  const liveSessions = async (userId: number) => (await t.db.selectFrom('sessions').select('id')
    .where('user_id', '=', userId).where('revoked_at', 'is', null).execute()).length
  const wallet = (token: string) => post(t.app, '/api/walletBalance', {}, { token })

  /** verifyPassword as it is, the armed call held after it answered. */
  const gatePasswords = () => {
    const g = gate()
    const real = jest.requireActual<typeof passwords>('../../server/src/security/passwords').verifyPassword
    jest.spyOn(passwords, 'verifyPassword').mockImplementation(async (hash, password) => {
      const ok = await real(hash, password)
      await g.hold()
      return ok
    })
    return g
  }

  test('a password login verified before the account was deleted gets no session (401), and nothing lives on', async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const g = gatePasswords()
    g.arm()
    const login = post(t.app, '/login/passwd', { user_name: u.user_name, password: u.password }, { ip: nextIp(), lang: 'en' })
    await g.reached
    // the owner deletes the account while that login waits after its password check
    const deleted = await post(t.app, '/api/security/deleteAccount', { password: u.password }, { token })
    expect(deleted.body).toMatchObject({ code: 200, data: { ended: 1 } })
    g.release()
    const answer = await login
    expect([answer.body.code, answer.body.message]).toEqual([401, expect.stringMatching(/changed while signing in/)])
    expect(answer.body.data).toBeNull()
    expect(await liveSessions(Number(u.id))).toBe(0)
  })

  test('a password login verified before the password changed gets no session; the change keeps only the changer\'s session', async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const g = gatePasswords()
    g.arm()
    const login = post(t.app, '/login/passwd', { user_name: u.user_name, password: u.password }, { ip: nextIp(), lang: 'zh' })
    await g.reached
    const changed = await post(t.app, '/api/security/password', { currentPassword: u.password, newPassword: 'another-secret' }, { token })
    expect(changed.body).toMatchObject({ code: 200, data: { ended: 0 } })
    g.release()
    const answer = await login
    expect([answer.body.code, answer.body.message]).toEqual([401, expect.stringMatching(/登录期间账号已变更/)])
    expect(await liveSessions(Number(u.id))).toBe(1)
    expect((await wallet(token)).body.code).toBe(200)
    // the new password works as before
    expect((await post(t.app, '/login/passwd', { user_name: u.user_name, password: 'another-secret' }, { ip: nextIp() })).body.code).toBe(200)
  })

  test('two password changes of one account at once: one applies, the other changes nothing (409)', async () => {
    const u = await makeUser(t.db, t.clock)
    const a = await loginToken(t.app, u.user_name!, u.password)
    const b = await loginToken(t.app, u.user_name!, u.password)
    const g = gatePasswords()
    g.arm()
    // the first change is held after checking the current password; the second one completes
    const first = post(t.app, '/api/security/password', { currentPassword: u.password, newPassword: 'first-new-pw' }, { token: a, lang: 'en' })
    await g.reached
    const second = await post(t.app, '/api/security/password', { currentPassword: u.password, newPassword: 'second-new-pw' }, { token: b })
    expect(second.body).toMatchObject({ code: 200, data: { ended: 1 } })
    g.release()
    const late = await first
    // its session was ended by the second change meanwhile, or its write finds the password changed
    expect([401, 409]).toContain(late.body.code)
    expect((await post(t.app, '/login/passwd', { user_name: u.user_name, password: 'second-new-pw' }, { ip: nextIp() })).body.code).toBe(200)
    expect((await post(t.app, '/login/passwd', { user_name: u.user_name, password: 'first-new-pw' }, { ip: nextIp() })).body.code).toBe(401)
  })

  test('an SMS code login that found the account before it was deleted gets no session', async () => {
    const phone = nextPhone()
    const u = await makeUser(t.db, t.clock, { phone })
    const sent = await get(t.app, '/login/sms/code', { query: { phone }, ip: nextIp() })
    expect(sent.body.code).toBe(200)
    const code = sms.lastCode(phone)
    const g = gate()
    const real = jest.requireActual<typeof identities>('../../server/src/domain/account/identities').userForContact
    jest.spyOn(identities, 'userForContact').mockImplementation(async (...args) => {
      const user = await real(...args)
      await g.hold()
      return user
    })
    g.arm()
    const login = post(t.app, '/login/sms', { phone, code }, { ip: nextIp() })
    await g.reached
    await deleteAccount(t.db, t.clock.now, dialect, Number(u.id), true)
    g.release()
    expect((await login).body.code).toBe(401)
    expect(await liveSessions(Number(u.id))).toBe(0)
  })

  test('a WeChat login that found the account before it was deleted gets no session', async () => {
    wx.miniCodes.set('race-code-1', { openid: 'openid-race' })
    const first = await post(t.app, '/login/weapp', { code: 'race-code-1' }, { ip: nextIp() })
    expect(first.body.code).toBe(200)
    const userId = Number(first.body.data.user.id)
    wx.miniCodes.set('race-code-2', { openid: 'openid-race' })
    const g = gate()
    const real = jest.requireActual<typeof identities>('../../server/src/domain/account/identities').userForIdentity
    jest.spyOn(identities, 'userForIdentity').mockImplementation(async (...args) => {
      const user = await real(...args)
      await g.hold()
      return user
    })
    g.arm()
    const login = post(t.app, '/login/weapp', { code: 'race-code-2' }, { ip: nextIp() })
    await g.reached
    await deleteAccount(t.db, t.clock.now, dialect, userId, true)
    g.release()
    expect((await login).body.code).toBe(401)
    expect(await liveSessions(userId)).toBe(0)
  })

  test('a session row that outlived its deleted account is refused everywhere', async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const s: Shopper = { id: Number(u.id), token, userName: u.user_name! }
    await deleteAccount(t.db, t.clock.now, dialect, s.id, true)
    // as a login of the old code left it: a live row of the deleted account
    await t.db.updateTable('sessions').set({ revoked_at: null }).where('token_hash', '=', hashToken(token)).execute()
    expect((await wallet(token)).body.code).toBe(401)
    const saved = await post(t.app, '/api/addressSave', { name: 'Li', phone: '13900139000', region: 'Beijing', detail: 'Road 9' }, { token })
    expect(saved.body.code).toBe(401)
    const no = await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: s.id }, { token })
    expect(no.body.code).toBe(401)
    expect(await t.db.selectFrom('addresses').select('id').where('user_id', '=', s.id).execute()).toEqual([])
  })
})

describe.each(testDialects())('deleting an account while it writes, on %s', (dialect) => {
  let t: TestApp
  let seriesId: number
  const ROUNDS = 6
  beforeAll(async () => {
    t = await createTestApp(dialect)
    seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const operator = await makeUser(t.db, t.clock, { role: 'operator' })
    // one prize ships free
    await saveSettings(t.db, t.clock.now, Number(operator.id), { shipFreeFromItems: 1 })
  })
  afterAll(async () => {
    expect(await invariantViolations(t.db)).toEqual([])
    await t.close()
  })

  /** A shopper with one prize in the warehouse, an address and no cash. */
  const shopperWithPrize = async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const s: Shopper = { id: Number(u.id), token, userName: u.user_name! }
    expect((await post(t.app, '/api/ageVerify', { birthDate: '1990-05-01' }, { token })).body.code).toBe(200)
    await topUp(t.app, s, 1000)
    const view = (await post(t.app, '/api/caseCurrent', { seriesId }, { token })).body.data
    const slot = view.slots.find((x: { sold: boolean }) => !x.sold).slot
    const bought = await buy(t.app, s, { caseId: await currentCaseId(t.app, seriesId, token), slots: [slot] })
    expect(bought.body.code).toBe(200)
    const addressId = (await post(t.app, '/api/addressSave', { name: '王五', phone: '13900139000', region: '上海市', detail: '淮海路 5 号' }, { token })).body.data.id
    return { u, s, prizeId: bought.body.data.prizes[0].prizeId as number, addressId: addressId as number }
  }

  afterEach(() => { jest.restoreAllMocks() })

  const parcelsOf = (userId: number) => t.db.selectFrom('shipments').select(['status', 'detail', 'phone']).where('user_id', '=', userId).execute()
  /** The deletion through the domain (no password check before it: its transaction starts at once). */
  const deletion = (userId: number) => deleteAccount(t.db, t.clock.now, dialect, userId, true)
    .then(() => 'deleted', (err: unknown) => err instanceof ApiFailure ? `${err.code}:${JSON.stringify(err.data)}` : Promise.reject(err))
  /** Resolves once a statement of this database waits on a lock (PostgreSQL; bounded, 3 s), or `settled` is; SQLite: after 0.3 s (a second writer just waits). */
  const waitForLockOr = async (settled: () => boolean) => {
    for (let i = 0; i < (dialect === 'postgres' ? 300 : 30) && !settled(); i++) {
      if (dialect === 'postgres') {
        const waiting = await t.db.selectNoFrom(sql<number>`(select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock')`.as('n')).executeTakeFirstOrThrow()
        if (Number(waiting.n) > 0) return
      }
      await new Promise(resolve => setTimeout(resolve, 10))
    }
  }

  test('a free parcel held inside its transaction while the account is deleted: the deletion waits, sees it and is refused', async () => {
    const { s, prizeId, addressId } = await shopperWithPrize()
    const g = gate()
    const real = jest.requireActual<typeof wallet>('../../server/src/domain/money/wallet').balanceOf
    // the parcel's transaction reads the balance last, after inserting the parcel: it is held there
    jest.spyOn(wallet, 'balanceOf').mockImplementation(async (db, userId) => {
      const b = await real(db, userId)
      await g.hold()
      return b
    })
    g.arm()
    const ship = post(t.app, '/api/shipmentCreate', { prizeIds: [prizeId], addressId, idempotencyKey: newKey('held') }, { token: s.token })
    await g.reached
    let outcome: string | undefined
    const del = deletion(s.id).then(o => { outcome = o; return o })
    await waitForLockOr(() => outcome !== undefined)
    g.release()
    expect((await ship).body.code).toBe(200)
    expect(await del).toBe('422:{"reason":"parcel"}')
    expect(await parcelsOf(s.id)).toEqual([{ status: 'requested', detail: '淮海路 5 号', phone: '13900139000' }])
    const user = await t.db.selectFrom('users').select('deleted_at').where('id', '=', s.id).executeTakeFirstOrThrow()
    expect(user.deleted_at).toBeNull()
  })

  test(`a free parcel and the deletion at once (${ROUNDS} rounds, staggered): never both; a deleted account keeps no street`, async () => {
    const outcomes: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const { s, prizeId, addressId } = await shopperWithPrize()
      const [ship, del] = await Promise.all([
        post(t.app, '/api/shipmentCreate', { prizeIds: [prizeId], addressId, idempotencyKey: newKey('race') }, { token: s.token }),
        new Promise(resolve => setTimeout(resolve, round)).then(() => deletion(s.id))
      ])
      outcomes.push(`${ship.body.code}/${del}`)
      const parcels = await parcelsOf(s.id)
      const user = await t.db.selectFrom('users').select('deleted_at').where('id', '=', s.id).executeTakeFirstOrThrow()
      if (del === 'deleted') {
        // 401: the account was deleted under the parcel's session; 404: its address was already gone
        expect([401, 404]).toContain(ship.body.code)
        expect(user.deleted_at).not.toBeNull()
        expect(parcels).toEqual([])
      } else {
        expect([ship.body.code, del]).toEqual([200, '422:{"reason":"parcel"}'])
        expect(user.deleted_at).toBeNull()
        expect(parcels).toEqual([{ status: 'requested', detail: '淮海路 5 号', phone: '13900139000' }])
      }
    }
    expect(outcomes.filter(o => !['200/422:{"reason":"parcel"}', '401/deleted', '404/deleted'].includes(o))).toEqual([])
    expect(t.logs.filter(l => l.includes('unhandled error'))).toEqual([])
  })

  test(`addresses, a birth date and limits written while the account is deleted (${ROUNDS} rounds): nothing personal survives`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const u = await makeUser(t.db, t.clock)
      const token = await loginToken(t.app, u.user_name!, u.password)
      const s: Shopper = { id: Number(u.id), token, userName: u.user_name! }
      const writes = [
        ...Array.from({ length: 3 }, (_, i) => post(t.app, '/api/addressSave', { name: 'Li', phone: '13900139000', region: 'Beijing', detail: `Road ${i}` }, { token })),
        post(t.app, '/api/data/invoke', { name: 'Li', phone: '13900139000', region: 'Beijing', detail: 'Road T' }, { token, query: { table: 'addresses', method: 'add' } }),
        post(t.app, '/api/ageVerify', { birthDate: '1990-05-01' }, { token }),
        post(t.app, '/api/security/limits', { daily: 5000 }, { token })
      ]
      const [del, ...answers] = await Promise.all([
        new Promise(resolve => setTimeout(resolve, round)).then(() => deletion(s.id)),
        ...writes
      ])
      expect(del).toBe('deleted')
      for (const a of answers) expect([200, 401]).toContain(a.body.code)
      for (const table of ['addresses', 'age_checks', 'spending_limits'] as const) {
        expect([table, (await t.db.selectFrom(table).select('user_id').where('user_id', '=', s.id).execute()).length]).toEqual([table, 0])
      }
    }
  })
})
