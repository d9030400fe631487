/**
 * Purchases on PostgreSQL that arrive together go in one statement (domain/purchaseBatch.ts): they answer
 * as if they had come one after the other (a twin replays, a slot taken by the purchase before is sold,
 * a refusal changes nothing and the next goes on), and a statement that fails is undone whole and each
 * purchase runs again alone. The books are checked after each. PostgreSQL only.
 *
 * Calls of purchaseOnPostgres made in one turn of the event loop queue in order: the first goes alone if
 * no statement is running, and the others wait and go together in the next statement.
 */
import { sql } from 'kysely'
import { testDialects } from './support/db'
import { createTestApp, makeUser, type TestApp } from './support/app'
import { makeSeries, newKey } from './support/shop'
import type { PurchaseDeps } from '../../server/src/domain/purchase/purchase'
import { purchaseOnPostgres } from '../../server/src/domain/purchase/purchaseOnPostgres'
import { purchaseBatchStats } from '../../server/src/domain/purchase/purchaseBatch'
import { createCase } from '../../server/src/domain/catalogue/cases'
import { checkLedger, postTransaction } from '../../server/src/domain/money/ledger'
import { addToWallet } from '../../server/src/domain/money/wallet'
import { iso } from '../../server/src/core/clock'
import { ApiFailure } from '../../server/src/core/errors'
import type { PurchaseRequest } from '../../types/shop'

const describeOnPostgres = testDialects().includes('postgres') ? describe : describe.skip

describeOnPostgres('purchases batched on postgres', () => {
  let t: TestApp
  let deps: PurchaseDeps
  beforeAll(async () => {
    t = await createTestApp('postgres')
    deps = { db: t.db, dialect: 'postgres', clock: t.clock.now }
  })
  afterAll(async () => { await t.close() })

  const now = () => iso(t.clock.now())

  async function shopper (cashCents = 100000): Promise<number> {
    const userId = Number((await makeUser(t.db, t.clock)).id)
    await t.db.insertInto('age_checks').values({
      user_id: userId, birth_date: '1990-05-01', guardian_consent: 0, created_at: now(), updated_at: now(),
      guardian_phone_masked: null, guardian_consented_at: null
    }).execute()
    if (cashCents) {
      await t.db.transaction().execute(async trx => {
        await postTransaction(trx, t.clock.now, {
          kind: 'topup', reference: 'test top-up', idempotencyKey: null, userId,
          lines: [{ account: 'payment_clearing', amountCents: -cashCents }, { account: 'user_cash', userId, amountCents: cashCents }]
        })
        await addToWallet(trx, t.clock.now, userId, { cashCents, creditCents: 0 })
      })
    }
    return userId
  }

  /** A case of its own series, the only one on sale there (6 slots: 5 regular designs and a rare one). */
  async function soleCase (): Promise<{ seriesId: number, caseId: number }> {
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 700, regular: 5, rare: 1, hidden: false })
    const caseId = (await t.db.transaction().execute(trx => createCase(trx, t.clock.now, seriesId)))!
    await t.db.updateTable('cases').set({ status: 'retired', revealed_at: now() })
      .where('series_id', '=', seriesId).where('id', '!=', caseId).where('status', '=', 'on_sale').execute()
    return { seriesId, caseId }
  }

  const request = (caseId: number, slots: number[], idempotencyKey = newKey('batch')): PurchaseRequest =>
    ({ acknowledged: true, idempotencyKey, caseId, slots }) as PurchaseRequest

  /** Each call's answer, or the message key of its refusal. */
  const settle = (calls: Array<Promise<Awaited<ReturnType<typeof purchaseOnPostgres>>>>) =>
    Promise.all(calls.map(c => c.then(
      answer => ({ answer, refused: null as string | null }),
      (err: unknown) => {
        if (!(err instanceof ApiFailure)) throw err
        return { answer: null, refused: err.key }
      })))

  async function booksHold (): Promise<void> {
    const books = await checkLedger(t.db)
    expect(books.unbalanced).toEqual([])
    expect(books.walletMismatches).toEqual([])
  }

  test('purchases that come together go in one statement and answer as one after the other', async () => {
    const { caseId } = await soleCase()
    const [a, b, c, d, broke] = [await shopper(), await shopper(), await shopper(), await shopper(), await shopper(300)]
    const before = purchaseBatchStats(t.db)
    const twinKey = newKey('twin')
    const outcomes = await settle([
      purchaseOnPostgres(deps, a, request(caseId, [1])),
      purchaseOnPostgres(deps, b, request(caseId, [2], twinKey)),
      purchaseOnPostgres(deps, b, request(caseId, [2], twinKey)), // b's twin: the first answer again
      purchaseOnPostgres(deps, c, request(caseId, [2])), // the slot b took just before, in the same statement
      purchaseOnPostgres(deps, broke, request(caseId, [3])), // 3.00 for a box of 7.00: refused, nothing moves
      purchaseOnPostgres(deps, d, request(caseId, [3])) // the slot the refusal left free
    ])
    const after = purchaseBatchStats(t.db)
    // the first alone and the rest together, or (when the statement before had not quite let go) all six together
    expect(after.statements - before.statements).toBeLessThanOrEqual(2)
    expect(after.purchases - before.purchases).toBe(6)
    expect(after.largest).toBeGreaterThanOrEqual(5)
    expect(after.fellBack).toBe(before.fellBack)

    const [first, twin1, twin2, taken, refused, last] = outcomes
    expect(first.answer?.result.prizes.map(p => p.slot)).toEqual([1])
    expect(twin1.answer?.replayed).toBe(false)
    expect(twin2.answer?.replayed).toBe(true)
    expect(twin2.answer?.result.purchaseId).toBe(twin1.answer?.result.purchaseId)
    expect(taken.refused).toBe('slot.sold')
    expect(refused.refused).toBe('wallet.insufficient')
    expect(last.answer?.result.prizes.map(p => p.slot)).toEqual([3])
    expect(last.answer?.result.balance.cashCents).toBe(100000 - 700)

    // the rows: one purchase each for a, b, d; a slot sold once each; the refused shoppers untouched
    const sold = await t.db.selectFrom('case_slots').select(['slot', 'sold_to']).where('case_id', '=', caseId).where('sold_to', 'is not', null).orderBy('slot').execute()
    expect(sold.map(s => [s.slot, Number(s.sold_to)])).toEqual([[1, a], [2, b], [3, d]])
    const prizes = await t.db.selectFrom('prizes').select('user_id').where('case_id', '=', caseId).execute()
    expect(prizes.map(p => Number(p.user_id)).sort((x, y) => x - y)).toEqual([a, b, d].sort((x, y) => x - y))
    for (const [user, cash] of [[c, 100000], [broke, 300]]) {
      const wallet = await t.db.selectFrom('wallets').select('cash_cents').where('user_id', '=', user).executeTakeFirstOrThrow()
      expect(Number(wallet.cash_cents)).toBe(cash)
    }
    await booksHold()
  })

  test('a statement that fails is undone whole, and each of its purchases runs again alone', async () => {
    const { seriesId, caseId } = await soleCase()
    const buyers = [await shopper(), await shopper(), await shopper(), await shopper()]
    // slots 1 and 2 sold beforehand: the burst below sells the last four, and with them the series' only case
    await purchaseOnPostgres(deps, buyers[0], request(caseId, [1, 2]))
    const before = purchaseBatchStats(t.db)
    const outcomes = await settle([
      purchaseOnPostgres(deps, buyers[0], request(caseId, [3])),
      // together (with the one before or after it): the last of them sells the case out, and the series has no other case on sale; the
      // function then refuses to finish outside a transaction, which undoes the whole statement
      purchaseOnPostgres(deps, buyers[1], request(caseId, [4])),
      purchaseOnPostgres(deps, buyers[2], request(caseId, [5])),
      purchaseOnPostgres(deps, buyers[3], request(caseId, [6]))
    ])
    const after = purchaseBatchStats(t.db)
    expect(after.statements - before.statements).toBeLessThanOrEqual(2)
    expect(after.largest).toBeGreaterThanOrEqual(3)
    expect(after.fellBack - before.fellBack).toBe(1)
    expect(outcomes.map(o => o.refused)).toEqual([null, null, null, null])
    expect(outcomes.map(o => o.answer?.result.prizes.map(p => p.slot))).toEqual([[3], [4], [5], [6]])
    // each slot sold once, to its buyer; the case revealed and a new one on sale
    const sold = await t.db.selectFrom('case_slots').select(['slot', 'sold_to']).where('case_id', '=', caseId).orderBy('slot').execute()
    expect(sold.map(s => Number(s.sold_to))).toEqual([buyers[0], buyers[0], buyers[0], buyers[1], buyers[2], buyers[3]])
    const cases = await t.db.selectFrom('cases').select('status').where('series_id', '=', seriesId).orderBy('id').execute()
    expect(cases.map(c => c.status)).toEqual(['retired', 'sold_out', 'on_sale'])
    const purchases = await t.db.selectFrom('purchases').select(({ fn }) => fn.countAll<number>().as('n')).where('case_id', '=', caseId).executeTakeFirstOrThrow()
    expect(Number(purchases.n)).toBe(5)
    await booksHold()
  })

  test('a batch holding a purchase while its buyer\'s account is being deleted: no deadlock, the accounts are taken first', async () => {
    const { caseId } = await soleCase()
    const [v, u, w] = [await shopper(), await shopper(), await shopper()]
    const before = purchaseBatchStats(t.db)
    let burst: ReturnType<typeof settle> | null = null
    // an account deletion's order (domain/security.ts deleteAccount): the account row, then its wallet
    const deletion = t.db.transaction().execute(async trx => {
      await sql`select id from users where id = ${u} for update`.execute(trx)
      burst = settle([
        purchaseOnPostgres(deps, v, request(caseId, [1])),
        purchaseOnPostgres(deps, u, request(caseId, [2])), // with w, in a statement that waits for u's account
        purchaseOnPostgres(deps, w, request(caseId, [3]))
      ])
      await new Promise(resolve => setTimeout(resolve, 300))
      await sql`select user_id from wallets where user_id = ${u} for update`.execute(trx)
      throw new Error('rolled back: nothing deleted')
    }).catch((err: Error) => err.message)
    expect(await deletion).toBe('rolled back: nothing deleted')
    const outcomes = await burst!
    expect(outcomes.map(o => o.answer?.result.prizes.map(p => p.slot))).toEqual([[1], [2], [3]])
    // had the batch locked u's wallet before u's account, PostgreSQL would have found a deadlock and
    // undone one side: the deletion, or the statement (run again alone)
    expect(purchaseBatchStats(t.db).fellBack).toBe(before.fellBack)
    await booksHold()
  })
})
