/**
 * Purchases on a remembered session (issue 25): on PostgreSQL, POST /api/casePurchase lets a request in on
 * what the process read of its token lately (SessionService.resolveRechecked) and shop_purchase checks the
 * session again first (migration 0033). A session ended where this process did not see it (another
 * process, a tool, the clock) is refused there with 401, and nothing moves: no money, no slot, no prize,
 * no idempotency key. SQLite asks the database every time, so the same requests get the same answers there.
 */
import { sql } from 'kysely'
import { testDialects } from './support/db'
import { statementsSent } from './support/statements'
import { createTestApp, get, loginToken, post, type TestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { SESSION_REMEMBER_MS } from '../../server/src/domain/account/sessions'
import { iso } from '../../server/src/core/clock'

const DAY = 24 * 60 * 60 * 1000

describe.each(testDialects())('purchases on a remembered session, %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  /** What a purchase could have moved for this shopper: money, slots, prizes, keys, books. */
  const footprint = async (s: Shopper) => {
    const wallet = await t.db.selectFrom('wallets').select(['cash_cents', 'credit_cents']).where('user_id', '=', s.id).executeTakeFirst()
    const count = async (table: 'prizes' | 'idempotency_keys' | 'purchases') =>
      Number((await t.db.selectFrom(table).select(eb => eb.fn.countAll().as('n')).where('user_id', '=', s.id).executeTakeFirstOrThrow()).n)
    const slots = await t.db.selectFrom('case_slots').select('slot').where('sold_to', '=', s.id).execute()
    const ledger = await t.db.selectFrom('ledger_transactions').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    return { wallet, prizes: await count('prizes'), keys: await count('idempotency_keys'), purchases: await count('purchases'), slots: slots.length, ledger: Number(ledger.n) }
  }

  /** A shopper with money who has bought once (from a series of the test's own): on PostgreSQL the session is now remembered. */
  const boughtOnce = async (): Promise<{ s: Shopper, caseId: number }> => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 5000)
    const caseId = await currentCaseId(t.app, await makeSeries(t.db, t.clock, { priceCents: 1000 }))
    const first = await buy(t.app, s, { caseId, slots: [await freeSlot(caseId)] })
    expect(first.body.code).toBe(200)
    return { s, caseId }
  }
  const freeSlot = async (caseId: number): Promise<number> => {
    const row = await t.db.selectFrom('case_slots').select('slot').where('case_id', '=', caseId).where('sold_to', 'is', null).orderBy('slot').executeTakeFirstOrThrow()
    return row.slot
  }

  const statements = statementsSent

  const endings: Array<[string, (s: Shopper) => Promise<unknown>]> = [
    ['revoked (a logout or a password change in another process)', s => t.db.updateTable('sessions').set({ revoked_at: iso(t.clock.now()) }).where('user_id', '=', s.id).execute()],
    ['past its absolute expiry', s => t.db.updateTable('sessions').set({ expires_at: iso(t.clock.now() - 1000) }).where('user_id', '=', s.id).execute()],
    ['idle too long', s => t.db.updateTable('sessions').set({ last_seen_at: iso(t.clock.now() - 8 * DAY) }).where('user_id', '=', s.id).execute()],
    ['deleted (the clean-up)', s => t.db.deleteFrom('sessions').where('user_id', '=', s.id).execute()]
  ]
  test.each(endings)('a session %s: the purchase is refused with 401 and nothing moves; the key stays unused', async (_, end) => {
    const { s, caseId } = await boughtOnce()
    await end(s)
    const before = await footprint(s)
    const key = newKey('after-end')
    const slot = await freeSlot(caseId)
    const refused = await buy(t.app, s, { caseId, slots: [slot], idempotencyKey: key })
    expect(refused.body).toEqual({ code: 401, message: 'Not logged in, or the session has expired', data: null })
    expect(await footprint(s)).toEqual(before)
    // the refusal was not an answer to the key: logged in again, the same key buys
    // (makeShopper's users have makeUser's default password)
    const again: Shopper = { ...s, token: await loginToken(t.app, s.userName, 'secret-pw') }
    const bought = await buy(t.app, again, { caseId, slots: [slot], idempotencyKey: key })
    expect(bought.body.code).toBe(200)
  })

  test('an account deleted elsewhere: 401, nothing moves', async () => {
    const { s, caseId } = await boughtOnce()
    await t.db.updateTable('users').set({ deleted_at: iso(t.clock.now()) }).where('id', '=', s.id).execute()
    const before = await footprint(s)
    const refused = await buy(t.app, s, { caseId, slots: [await freeSlot(caseId)] })
    expect(refused.body.code).toBe(401)
    expect(await footprint(s)).toEqual(before)
  })

  test('a logout in this process is seen at once: authorization still comes before validation', async () => {
    const { s, caseId } = await boughtOnce()
    expect((await get(t.app, '/logout', { token: s.token })).body.code).toBe(200)
    // a malformed body (no slots, no whole case) from a logged-out token: 401, not 400
    expect((await buy(t.app, s, { caseId, slots: [] })).body.code).toBe(401)
    expect((await buy(t.app, s, { caseId, slots: [await freeSlot(caseId)] })).body.code).toBe(401)
  })

  test('sessions ended in this process from another device are seen at once too', async () => {
    const { s, caseId } = await boughtOnce()
    // a second device of the same shopper, remembered by its own purchase
    const phone: Shopper = { ...s, token: await loginToken(t.app, s.userName, 'secret-pw') }
    expect((await buy(t.app, phone, { caseId, slots: [await freeSlot(caseId)] })).body.code).toBe(200)
    expect((await post(t.app, '/api/security/sessionsEndOthers', {}, { token: s.token })).body).toMatchObject({ code: 200, data: { ended: 1 } })
    expect((await buy(t.app, phone, { caseId, slots: [] })).body.code).toBe(401)
    expect((await buy(t.app, s, { caseId, slots: [await freeSlot(caseId)] })).body.code).toBe(200)
    expect((await post(t.app, '/api/security/logoutAll', {}, { token: s.token })).body.code).toBe(200)
    expect((await buy(t.app, s, { caseId, slots: [] })).body.code).toBe(401)
  })

  test('a session ended elsewhere: a malformed body, or any refusal made before the statement, still answers 401 first', async () => {
    const { s, caseId } = await boughtOnce()
    await t.db.updateTable('sessions').set({ revoked_at: iso(t.clock.now()) }).where('user_id', '=', s.id).execute()
    // the remembered session let these past authorization; their refusals are confirmed by a fresh read
    expect((await buy(t.app, s, { caseId, slots: [] })).body.code).toBe(401)
    expect((await buy(t.app, s, { caseId, slots: [1, 1] })).body.code).toBe(401)
    expect((await buy(t.app, s, { caseId, slots: [1], acknowledged: 'yes' })).body.code).toBe(401)
    expect((await post(t.app, '/api/casePurchase', 'not json', { token: s.token, headers: { 'content-type': 'application/json' } })).body.code).toBe(401)
  })

  test('a live session: its refusals are its own (400 naming the field, 409 for a sold slot)', async () => {
    const { s, caseId } = await boughtOnce()
    const sold = (await t.db.selectFrom('case_slots').select('slot').where('sold_to', '=', s.id).executeTakeFirstOrThrow()).slot
    expect((await buy(t.app, s, { caseId, slots: [] })).body).toMatchObject({ code: 400, data: { field: 'slots' } })
    expect((await buy(t.app, s, { caseId, slots: [sold] })).body).toMatchObject({ code: 409, data: { slot: sold } })
  })

  test(`what the process remembers lasts at most ${SESSION_REMEMBER_MS / 1000} s`, async () => {
    const { s, caseId } = await boughtOnce()
    await t.db.updateTable('sessions').set({ revoked_at: iso(t.clock.now()) }).where('user_id', '=', s.id).execute()
    t.clock.advance(SESSION_REMEMBER_MS)
    const texts = await statements(async () => expect((await buy(t.app, s, { caseId, slots: [] })).body.code).toBe(401))
    // read again (on PostgreSQL: the session lookup is the request's first statement), then refused
    if (dialect === 'postgres') expect(texts[0]).toMatch(/from "sessions"/)
  })

  test('the other signed-in calls ask the database every time', async () => {
    const { s } = await boughtOnce()
    await t.db.updateTable('sessions').set({ revoked_at: iso(t.clock.now()) }).where('user_id', '=', s.id).execute()
    expect((await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.code).toBe(401)
    expect((await post(t.app, '/api/purchaseCheck', { caseId: 1, slots: [1] }, { token: s.token })).body.code).toBe(401)
  })

  if (dialect === 'postgres') {
    test('on a remembered session a purchase reaches the database once: no session lookup of its own', async () => {
      const { s, caseId } = await boughtOnce()
      const slot = await freeSlot(caseId)
      const texts = await statements(async () => expect((await buy(t.app, s, { caseId, slots: [slot] })).body.code).toBe(200))
      expect(texts).toEqual([expect.stringMatching(/^select shop_purchase\(/)])
      // and the statement's check is the one migration 0033 installed
      const { rows } = await sql<{ n: number }>`select pronargs as n from pg_proc where proname = 'shop_purchase'`.execute(t.db)
      expect(rows).toEqual([{ n: 20 }])
    })
  }
})
