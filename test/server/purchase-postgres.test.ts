/**
 * The one-statement purchase on PostgreSQL (domain/purchaseOnPostgres.ts, migration 0026) against the
 * step-by-step path (purchase.ts purchaseInSteps) on the same database: every refusal, in the order of
 * the rules, answers the same (status, message key and parameters, data) one to one, and so do
 * successes, replays and the key's refusals; then the round trips of one purchase are counted.
 * PostgreSQL only (SQLite has only the step-by-step path).
 */
import pg from 'pg'
import { sql } from 'kysely'
import { testDialects } from './support/db'
import { createTestApp, makeUser, type TestApp } from './support/app'
import { makeSeries, newKey } from './support/shop'
import { purchase, purchaseInSteps, type PurchaseDeps } from '../../server/src/domain/purchase/purchase'
import { purchaseOnPostgres } from '../../server/src/domain/purchase/purchaseOnPostgres'
import { createCase } from '../../server/src/domain/catalogue/cases'
import { checkLedger, postTransaction } from '../../server/src/domain/money/ledger'
import { addToWallet } from '../../server/src/domain/money/wallet'
import { iso } from '../../server/src/core/clock'
import { ApiFailure } from '../../server/src/core/errors'
import type { PurchaseRequest } from '../../types/shop'

const describeOnPostgres = testDialects().includes('postgres') ? describe : describe.skip
const DAY = 24 * 60 * 60 * 1000

type Path = (deps: PurchaseDeps, userId: number, request: PurchaseRequest) => ReturnType<typeof purchase>
const PATHS: Path[] = [purchaseInSteps, purchaseOnPostgres]

/** What a purchase answered, with the ids of this world (purchase, prizes, case, series) left out. */
type Outcome =
  | { failure: { code: number | string; key: string; params: unknown; data: unknown; httpStatus: number } }
  | { replayed: boolean; result: unknown }

async function outcomeOf (run: () => ReturnType<typeof purchase>): Promise<Outcome> {
  try {
    const { result, replayed } = await run()
    const { purchaseId, caseId, seriesId, prizes, ...rest } = result
    expect([purchaseId, caseId, seriesId].every(Number.isSafeInteger)).toBe(true)
    return { replayed, result: { ...rest, prizes: prizes.map(({ prizeId, caseId, design: { id, ...design }, ...p }) => ({ ...p, design })) } }
  } catch (err) {
    if (!(err instanceof ApiFailure)) throw err
    return { failure: { code: err.code, key: err.key, params: err.params, data: err.data, httpStatus: err.httpStatus } }
  }
}

describeOnPostgres('the one-statement purchase on postgres', () => {
  let t: TestApp
  let deps: PurchaseDeps
  let seriesId: number
  let noHiddenSeries: number
  beforeAll(async () => {
    t = await createTestApp('postgres')
    deps = { db: t.db, dialect: 'postgres', clock: t.clock.now }
    seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    noHiddenSeries = await makeSeries(t.db, t.clock, { priceCents: 700, regular: 5, rare: 1, hidden: false })
  })
  afterAll(async () => { await t.close() })

  /** A case arranged the same way every time (the two worlds get the same designs in the same slots). */
  const sameCase = async (series = seriesId): Promise<number> => {
    const id = await t.db.transaction().execute(trx => createCase(trx, t.clock.now, series, max => 7 % max))
    if (id === null) throw new Error(`series ${series} is out of stock`)
    return id
  }
  const now = () => iso(t.clock.now())
  /** Such a case, the only one of its series on sale (the series' first case, made with it, retired). */
  const soleCase = async (series: number) => {
    const caseId = await sameCase(series)
    await t.db.updateTable('cases').set({ status: 'retired', revealed_at: now() })
      .where('series_id', '=', series).where('id', '!=', caseId).where('status', '=', 'on_sale').execute()
    return caseId
  }

  async function shopper (o: { birthDate?: string | null; consent?: boolean; cashCents?: number; creditCents?: number } = {}): Promise<number> {
    const user = await makeUser(t.db, t.clock)
    const userId = Number(user.id)
    const birthDate = o.birthDate === undefined ? '1990-05-01' : o.birthDate
    if (birthDate) {
      await t.db.insertInto('age_checks').values({
        user_id: userId, birth_date: birthDate, guardian_consent: o.consent ? 1 : 0, created_at: now(), updated_at: now(),
        guardian_phone_masked: o.consent ? '139****0000' : null, guardian_consented_at: o.consent ? now() : null
      }).execute()
    }
    await t.db.transaction().execute(async trx => {
      const cash = o.cashCents ?? 100000
      const credit = o.creditCents ?? 0
      if (cash) {
        await postTransaction(trx, t.clock.now, {
          kind: 'topup', reference: 'test top-up', idempotencyKey: null, userId,
          lines: [{ account: 'payment_clearing', amountCents: -cash }, { account: 'user_cash', userId, amountCents: cash }]
        })
      }
      if (credit) {
        await postTransaction(trx, t.clock.now, {
          kind: 'reward', reference: 'test credit', idempotencyKey: null, userId,
          lines: [{ account: 'house_credit', amountCents: -credit }, { account: 'user_credit', userId, amountCents: credit }]
        })
      }
      if (cash || credit) await addToWallet(trx, t.clock.now, userId, { cashCents: cash, creditCents: credit })
    })
    return userId
  }

  const request = (body: Omit<PurchaseRequest, 'acknowledged' | 'idempotencyKey'> & { idempotencyKey?: string }): PurchaseRequest =>
    ({ acknowledged: true, idempotencyKey: newKey('pg'), ...body }) as PurchaseRequest
  type Body = Parameters<typeof request>[0]
  /** Buys in a scenario's world, on the path the scenario is run for. */
  type Buy = (userId: number, body: Body) => ReturnType<typeof purchase>
  const setLimit = (userId: number, kind: 'daily' | 'monthly', cents: number) => t.db.insertInto('spending_limits')
    .values({ user_id: userId, kind, cents, pending_cents: null, pending_set: 0, pending_at: null, updated_at: now() }).execute()
  const hold = (caseId: number, slot: number, userId: number, expiresAt: number) => t.db.insertInto('slot_reservations')
    .values({ case_id: caseId, slot, user_id: userId, expires_at: iso(expiresAt) }).execute()

  /**
   * Each scenario makes its world (a shopper, cases, what happened before, bought on the path under
   * test) and answers the purchase to try; it runs once per path, each time in a world of its own made
   * the same way.
   */
  type Scenario = (buy: Buy) => Promise<{ userId: number; request: PurchaseRequest }>
  const scenarios: Record<string, Scenario> = {
    // 1. the body
    'neither slots nor wholeCase': async () => ({ userId: await shopper(), request: request({ caseId: await sameCase() }) }),
    'both slots and wholeCase': async () => ({ userId: await shopper(), request: request({ caseId: await sameCase(), slots: [1], wholeCase: true }) }),
    'a slot twice': async () => ({ userId: await shopper(), request: request({ caseId: await sameCase(), slots: [2, 3, 2] }) }),
    'a slot twice, and no birth date (the body first)': async () => ({ userId: await shopper({ birthDate: null }), request: request({ caseId: 999999, slots: [1, 1] }) }),
    // the live account
    'a deleted account': async () => {
      const userId = await shopper()
      await t.db.updateTable('users').set({ deleted_at: now() }).where('id', '=', userId).execute()
      return { userId, request: request({ caseId: await sameCase(), slots: [1] }) }
    },
    // 2. the age gate
    'no birth date': async () => ({ userId: await shopper({ birthDate: null }), request: request({ caseId: await sameCase(), slots: [1] }) }),
    'under 8': async () => ({ userId: await shopper({ birthDate: '2019-03-02' }), request: request({ caseId: await sameCase(), slots: [1] }) }),
    'turns 8 today': async () => ({ userId: await shopper({ birthDate: '2018-03-01', consent: true }), request: request({ caseId: await sameCase(), slots: [1] }) }),
    'turns 8 tomorrow': async () => ({ userId: await shopper({ birthDate: '2018-03-02', consent: true }), request: request({ caseId: await sameCase(), slots: [1] }) }),
    'a minor without consent': async () => ({ userId: await shopper({ birthDate: '2012-06-01' }), request: request({ caseId: await sameCase(), slots: [1] }) }),
    'a minor without consent, on an unknown case (the age first)': async () => ({ userId: await shopper({ birthDate: '2012-06-01' }), request: request({ caseId: 999999, slots: [1] }) }),
    'turns 18 today (no cap, no consent needed)': async () => ({ userId: await shopper({ birthDate: '2008-03-01' }), request: request({ caseId: await sameCase(), slots: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }) }),
    // 3. the case, the series, the slots inside the case
    'an unknown case': async () => ({ userId: await shopper(), request: request({ caseId: 999999, slots: [1] }) }),
    'a sold-out case': async (buy) => {
      const caseId = await sameCase()
      await buy(await shopper(), { caseId, wholeCase: true })
      return { userId: await shopper(), request: request({ caseId, slots: [1] }) }
    },
    'a case of a retired series': async () => {
      const retired = await makeSeries(t.db, t.clock, { priceCents: 1000 })
      const caseId = await sameCase(retired)
      await t.db.updateTable('series').set({ status: 'retired' }).where('id', '=', retired).execute()
      return { userId: await shopper(), request: request({ caseId, slots: [1] }) }
    },
    'a case of a draft series': async () => {
      const draft = await makeSeries(t.db, t.clock, { priceCents: 1000, status: 'draft' })
      return { userId: await shopper(), request: request({ caseId: await sameCase(draft), slots: [1] }) }
    },
    'a slot outside the case, after a sold one (range first)': async (buy) => {
      const caseId = await sameCase()
      await buy(await shopper(), { caseId, slots: [2] })
      return { userId: await shopper(), request: request({ caseId, slots: [2, 13, 40] }) }
    },
    // 4. the slots still free, not held for another
    'the first sold slot in the order asked': async (buy) => {
      const caseId = await sameCase()
      await buy(await shopper(), { caseId, slots: [1, 5] })
      return { userId: await shopper(), request: request({ caseId, slots: [3, 5, 1] }) }
    },
    'a sold slot and a wrong price (the slot first)': async (buy) => {
      const caseId = await sameCase()
      await buy(await shopper(), { caseId, slots: [4] })
      return { userId: await shopper(), request: request({ caseId, slots: [4], priceCents: 1 }) }
    },
    'a slot held for another shopper, and a wrong price (the hold first)': async () => {
      const caseId = await sameCase()
      const other = await shopper()
      await hold(caseId, 6, other, t.clock.now() + 60_000)
      await hold(caseId, 3, other, t.clock.now() + 60_000)
      return { userId: await shopper(), request: request({ caseId, slots: [6, 2, 3], priceCents: 1 }) }
    },
    'a whole case with a slot held for another shopper': async () => {
      const caseId = await sameCase()
      await hold(caseId, 9, await shopper(), t.clock.now() + 60_000)
      return { userId: await shopper(), request: request({ caseId, wholeCase: true }) }
    },
    'own hold and a lapsed hold: bought, the holds used up': async () => {
      const caseId = await sameCase()
      const userId = await shopper()
      await hold(caseId, 2, userId, t.clock.now() + 60_000)
      await hold(caseId, 3, await shopper(), t.clock.now() - 1)
      return { userId, request: request({ caseId, slots: [2, 3] }) }
    },
    // 5. the price
    'the price changed': async () => ({ userId: await shopper(), request: request({ caseId: await sameCase(), slots: [1], priceCents: 999 }) }),
    'the price as shown: bought': async () => ({ userId: await shopper(), request: request({ caseId: await sameCase(), slots: [1], priceCents: 1000 }) }),
    // 6. the caps
    'a minor past the daily cap': async (buy) => {
      const userId = await shopper({ birthDate: '2012-06-01', consent: true })
      const caseId = await sameCase()
      await buy(userId, { caseId, slots: [1, 2, 3] })
      return { userId, request: request({ caseId, slots: [4, 5, 6, 7, 8] }) }
    },
    'a minor past the cap, and short of money (the cap first)': async () => {
      const userId = await shopper({ birthDate: '2012-06-01', consent: true, cashCents: 500 })
      return { userId, request: request({ caseId: await sameCase(), slots: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }) }
    },
    'a minor, spent yesterday: the cap counts today only': async (buy) => {
      const userId = await shopper({ birthDate: '2012-06-01', consent: true })
      const caseId = await sameCase()
      await buy(userId, { caseId, slots: [1, 2, 3, 4, 5, 6, 7, 8] })
      t.clock.advance(DAY)
      return { userId, request: request({ caseId, slots: [9, 10] }) }
    },
    'own daily limit': async (buy) => {
      const userId = await shopper()
      await setLimit(userId, 'daily', 2500)
      const caseId = await sameCase()
      await buy(userId, { caseId, slots: [1] })
      return { userId, request: request({ caseId, slots: [2, 3] }) }
    },
    'own monthly limit, stricter than the daily one': async (buy) => {
      const userId = await shopper()
      await setLimit(userId, 'daily', 5000)
      await setLimit(userId, 'monthly', 3000)
      const caseId = await sameCase()
      await buy(userId, { caseId, slots: [1, 2] })
      return { userId, request: request({ caseId, slots: [3, 4] }) }
    },
    'a minor\'s cap and an own daily limit with as much left (the minor\'s named)': async () => {
      const userId = await shopper({ birthDate: '2012-06-01', consent: true })
      await setLimit(userId, 'daily', 10000)
      return { userId, request: request({ caseId: await sameCase(), slots: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }) }
    },
    'a minor\'s own daily limit below the cap (the limit named)': async () => {
      const userId = await shopper({ birthDate: '2012-06-01', consent: true })
      await setLimit(userId, 'daily', 3000)
      return { userId, request: request({ caseId: await sameCase(), slots: [1, 2, 3, 4] }) }
    },
    'a raised limit not yet in force, and a lowered one in force': async () => {
      const userId = await shopper()
      await t.db.insertInto('spending_limits').values([
        { user_id: userId, kind: 'daily', cents: 2000, pending_cents: 90000, pending_set: 1, pending_at: iso(t.clock.now() + 60_000), updated_at: now() },
        { user_id: userId, kind: 'monthly', cents: 90000, pending_cents: 2500, pending_set: 1, pending_at: iso(t.clock.now() - 1), updated_at: now() }
      ]).execute()
      return { userId, request: request({ caseId: await sameCase(), slots: [1, 2, 3] }) }
    },
    'a limit removed by a pending change in force: bought': async () => {
      const userId = await shopper()
      await t.db.insertInto('spending_limits').values({ user_id: userId, kind: 'daily', cents: 100, pending_cents: null, pending_set: 1, pending_at: iso(t.clock.now() - 1), updated_at: now() }).execute()
      return { userId, request: request({ caseId: await sameCase(), slots: [1, 2] }) }
    },
    // 7. credit first, then cash; the shortfall
    'credit and cash short: the shortfall': async () => ({ userId: await shopper({ cashCents: 1200, creditCents: 500 }), request: request({ caseId: await sameCase(), slots: [1, 2, 3] }) }),
    'no wallet at all': async () => ({ userId: await shopper({ cashCents: 0 }), request: request({ caseId: await sameCase(), slots: [1] }) }),
    'credit and cash just enough: bought, credit first': async () => ({ userId: await shopper({ cashCents: 2500, creditCents: 500 }), request: request({ caseId: await sameCase(), slots: [1, 2, 3] }) }),
    'credit covers it all: bought': async () => ({ userId: await shopper({ cashCents: 0, creditCents: 5000 }), request: request({ caseId: await sameCase(), slots: [7] }) }),
    // a whole case: sold out, revealed, an X-ray card; the series keeps a case on sale
    'a whole case, the series keeping another case': async () => {
      await sameCase()
      return { userId: await shopper(), request: request({ caseId: await sameCase(), wholeCase: true }) }
    },
    'a whole case of a series\' only case: the next case is made': async () => {
      const own = await makeSeries(t.db, t.clock, { priceCents: 700, regular: 5, rare: 1, hidden: false })
      return { userId: await shopper(), request: request({ caseId: await soleCase(own), wholeCase: true }) }
    },
    'the rest of a case with a hidden-free series': async (buy) => {
      const caseId = await sameCase(noHiddenSeries)
      await buy(await shopper(), { caseId, slots: [2, 4] })
      return { userId: await shopper(), request: request({ caseId, wholeCase: true }) }
    },
    // the key
    'the same key and body again: the first answer': async (buy) => {
      const userId = await shopper()
      const caseId = await sameCase()
      const idempotencyKey = newKey('again')
      await buy(userId, { caseId, slots: [1, 2], idempotencyKey })
      return { userId, request: request({ caseId, slots: [1, 2], idempotencyKey }) }
    },
    'the same key, another body': async (buy) => {
      const userId = await shopper()
      const caseId = await sameCase()
      const idempotencyKey = newKey('other')
      await buy(userId, { caseId, slots: [1], idempotencyKey })
      return { userId, request: request({ caseId, slots: [2], idempotencyKey }) }
    },
    'the same key, another body that the rules refuse (the key first)': async (buy) => {
      const userId = await shopper()
      const caseId = await sameCase()
      const idempotencyKey = newKey('refused')
      await buy(userId, { caseId, slots: [1], idempotencyKey })
      return { userId, request: request({ caseId: 999999, slots: [3], priceCents: 5, idempotencyKey }) }
    },
    'the same key, another body refused by the body check (the key first)': async (buy) => {
      const userId = await shopper()
      const caseId = await sameCase()
      const idempotencyKey = newKey('dup')
      await buy(userId, { caseId, slots: [1], idempotencyKey })
      return { userId, request: request({ caseId, slots: [3, 3], idempotencyKey }) }
    },
    'the same key and body after the account was deleted (the key first)': async (buy) => {
      const userId = await shopper()
      const caseId = await sameCase()
      const idempotencyKey = newKey('gone')
      await buy(userId, { caseId, slots: [5], idempotencyKey })
      await t.db.updateTable('users').set({ deleted_at: now() }).where('id', '=', userId).execute()
      return { userId, request: request({ caseId, slots: [5], idempotencyKey }) }
    },
    'a key of another route': async () => {
      const userId = await shopper()
      const idempotencyKey = newKey('route')
      await t.db.insertInto('idempotency_keys').values({ user_id: userId, key: idempotencyKey, scope: 'propPurchase', request_hash: 'x'.repeat(64), response: '{}', created_at: now() }).execute()
      return { userId, request: request({ caseId: await sameCase(), slots: [1], idempotencyKey }) }
    }
  }

  test.each(Object.keys(scenarios))('%s: both paths answer the same', async (name) => {
    const outcomes: Outcome[] = []
    const start = t.clock.ms
    for (const path of PATHS) {
      t.clock.ms = start
      const { userId, request: r } = await scenarios[name]((userId, body) => path(deps, userId, request(body)))
      outcomes.push(await outcomeOf(() => path(deps, userId, r)))
    }
    expect(outcomes[1]).toEqual(outcomes[0])
    t.clock.ms = start
  })

  test('every refusal and both successes were seen, on the one-statement path', async () => {
    const seen = new Set<string>()
    for (const name of Object.keys(scenarios)) {
      const start = t.clock.ms
      const { userId, request: r } = await scenarios[name]((userId, body) => purchaseOnPostgres(deps, userId, request(body)))
      const o = await outcomeOf(() => purchaseOnPostgres(deps, userId, r))
      seen.add('failure' in o ? o.failure.key : o.replayed ? 'replay' : 'bought')
      t.clock.ms = start
    }
    expect([...seen].sort()).toEqual([
      'age.dailyCap', 'age.guardianRequired', 'age.required', 'age.tooYoung', 'auth.required', 'bought',
      'case.notFound', 'case.notOnSale', 'idempotency.keyReused', 'limit.daily', 'limit.monthly',
      'purchase.priceChanged', 'purchase.slotsOrWholeCase', 'replay', 'slot.duplicate', 'slot.outOfRange',
      'slot.reserved', 'slot.sold', 'wallet.insufficient'
    ])
    const books = await checkLedger(t.db)
    expect(books.unbalanced).toEqual([])
    expect(books.walletMismatches).toEqual([])
  })

  test('a whole case of a series\' only case: revealed, the X-ray card granted, one case on sale again', async () => {
    const own = await makeSeries(t.db, t.clock, { priceCents: 700, regular: 5, rare: 1, hidden: false })
    const caseId = await soleCase(own)
    const userId = await shopper()
    const { result } = await purchase(deps, userId, request({ caseId, wholeCase: true }))
    expect(result.prizes.map(p => p.slot)).toEqual([1, 2, 3, 4, 5, 6])
    expect(result.xrayCardsEarned).toBe(1)
    const cases = await t.db.selectFrom('cases').select(['id', 'status', 'revealed_at']).where('series_id', '=', own).orderBy('id').execute()
    expect(cases.map(c => c.status)).toEqual(['retired', 'sold_out', 'on_sale'])
    expect(cases[1].revealed_at).not.toBeNull()
    const cards = await t.db.selectFrom('prop_inventory').select('count').where('user_id', '=', userId).where('kind', '=', 'xray').executeTakeFirst()
    expect(cards?.count).toBe(1)
  })

  describe('round trips of one purchase', () => {
    let texts: string[] | null = null
    const query = pg.Client.prototype.query
    beforeAll(() => {
      // every statement a pooled client sends is one round trip (the extended protocol sends parse, bind,
      // execute and sync at once and waits for the answer)
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const first = args[0]
        if (texts) texts.push(typeof first === 'string' ? first : String((first as { text?: string })?.text))
        return (query as (...a: unknown[]) => unknown).apply(this, args)
      } as typeof query
    })
    afterAll(() => { pg.Client.prototype.query = query })
    const counted = async (run: () => Promise<unknown>): Promise<string[]> => {
      texts = []
      try {
        await run().catch(err => { if (!(err instanceof ApiFailure)) throw err })
        return texts
      } finally {
        texts = null
      }
    }

    test('a purchase, a refusal and a replay each reach the database once; the step-by-step path many times', async () => {
      const userId = await shopper({ creditCents: 1500 })
      const caseId = await sameCase()
      await sameCase()
      const r = request({ caseId, slots: [3, 1] })
      const steps = await counted(() => purchaseInSteps(deps, userId, request({ caseId, slots: [5] })))
      const bought = await counted(() => purchase(deps, userId, r))
      const replay = await counted(() => purchase(deps, userId, r))
      const refused = await counted(() => purchase(deps, userId, request({ caseId, slots: [1] })))
      const whole = await counted(() => purchase(deps, userId, request({ caseId, wholeCase: true })))
      expect(bought).toEqual([expect.stringMatching(/^select shop_purchase\(/)])
      expect(replay).toEqual([expect.stringMatching(/^select shop_purchase\(/)])
      expect(refused).toEqual([expect.stringMatching(/^select shop_purchase\(/)])
      // a whole case that leaves the series a case on sale: revealed in the same statement
      expect(whole).toEqual([expect.stringMatching(/^select shop_purchase\(/)])
      // the step-by-step path, for the record (BEGIN, the account, age, case, slots, wallet, limits, spent, moves, books, key, COMMIT)
      expect(steps.length).toBeGreaterThanOrEqual(10)
      console.log(`round trips of one purchase on PostgreSQL: step by step ${steps.length}, one statement ${bought.length}`)
    })

    test('the sell-out of a series\' last case on sale: once undone, then in a transaction that makes the next case', async () => {
      const own = await makeSeries(t.db, t.clock, { priceCents: 700, regular: 5, rare: 1, hidden: false })
      const userId = await shopper()
      const caseId = await soleCase(own)
      const sent = await counted(() => purchase(deps, userId, request({ caseId, wholeCase: true })))
      expect(sent[0]).toMatch(/^select shop_purchase\(/)
      expect(sent[1].toLowerCase()).toBe('begin')
      expect(sent[2]).toMatch(/^select shop_purchase\(/)
      expect(sent[sent.length - 1].toLowerCase()).toBe('commit')
      expect((await t.db.selectFrom('cases').select('id').where('series_id', '=', own).where('status', '=', 'on_sale').execute())).toHaveLength(1)
    })
  })

  test('the function is installed by migration 0026 only on PostgreSQL', async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_proc where proname in ('shop_purchase', 'shop_purchase_refuse')`.execute(t.db)
    expect(rows[0].n).toBe(2)
  })
})
