/**
 * Property-based money tests (fast-check), on SQLite and PostgreSQL: random sequences, with parallel
 * bursts, of top-ups (the order flow and the sandbox), purchases (slots or a whole case, small cases so
 * that sell-outs and new cases happen), cancels, paying one order twice at once, replays of an
 * idempotency key (after the fact and as parallel twins) and reuse of a key with another body (after the
 * fact and at the same moment). Each answer is checked against what it claims (outside bursts, the
 * wallet moves by exactly the price of an applied purchase and not at all for a refused one), and after
 * every run the books are checked in the database (support/invariants.ts).
 */
import fc from 'fast-check'
import { testDialects } from '../support/db'
import { createTestApp, post, type TestApp } from '../support/app'
import { currentCaseId, makeSeries, makeShopper, topUp, type Shopper } from '../support/shop'
import { invariantViolations } from '../support/invariants'
import { TOPUP_PRODUCT_ID } from '../../../types/limits'
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer'
import type { Dialect } from '../../../server/src/db/dialect'

const RUNS = 25

/**
 * Each database, and PostgreSQL once more through pgbouncer in transaction mode (issue 25: the server
 * behind a connection pooler keeps its row locks and statements correct; PGBOUNCER_TESTS=off skips it).
 */
interface Target { name: string; dialect: Dialect; pooler: boolean; runs: number; seed: number }
const targets: Target[] = testDialects().map(d => ({ name: d, dialect: d, pooler: false, runs: RUNS, seed: d === 'sqlite' ? 7 : 11 }))
if (testDialects().includes('postgres') && process.env.PGBOUNCER_TESTS !== 'off') {
  targets.push({ name: 'postgres through pgbouncer', dialect: 'postgres', pooler: true, runs: 15, seed: 13 })
}

type Op =
  | { kind: 'topup'; who: number; cents: number; cancel: boolean; payTwice: boolean }
  | { kind: 'twins'; who: number; series: number; slots: number[] | 'whole'; copies: number; otherBody: boolean }
  | { kind: 'buy'; who: number; series: number; slots: number[] | 'whole' }
  | { kind: 'replay'; who: number }
  | { kind: 'reuse'; who: number; slot: number }
  | { kind: 'burst'; ops: Op[] }

const who = fc.integer({ min: 0, max: 2 })
const single: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('topup' as const), who, cents: fc.constantFrom(100, 500, 1500, 5000), cancel: fc.boolean(), payTwice: fc.boolean() }),
  // one key sent 2-3 times at once: the same body (twins) or, with otherBody, another slot for the last copy
  fc.record({
    kind: fc.constant('twins' as const), who, series: fc.integer({ min: 0, max: 1 }),
    slots: fc.oneof(fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 2 }), fc.constant('whole' as const)),
    copies: fc.integer({ min: 2, max: 3 }), otherBody: fc.boolean()
  }),
  fc.record({
    kind: fc.constant('buy' as const), who, series: fc.integer({ min: 0, max: 1 }),
    slots: fc.oneof(fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }), fc.constant('whole' as const))
  }),
  fc.record({ kind: fc.constant('replay' as const), who }),
  fc.record({ kind: fc.constant('reuse' as const), who, slot: fc.integer({ min: 1, max: 4 }) })
)
const program = fc.array(fc.oneof({ weight: 4, arbitrary: single }, { weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const), ops: fc.array(single, { minLength: 2, maxLength: 8 }) }) }), { minLength: 5, maxLength: 25 })

describe.each(targets)('money properties on $name', ({ name, dialect, pooler, runs, seed }) => {
  let t: TestApp
  let bouncer: PgBouncer | undefined
  let keys = 0
  const stats = { runs: 0, operations: 0, purchases: 0, refused: 0, topups: 0, cancels: 0, doublePays: 0, replays: 0, conflicts: 0, twinRaces: 0, twinsApplied: 0, reuseRaces: 0, soloChecks: 0 }
  beforeAll(async () => {
    if (pooler) bouncer = await startPgBouncer()
    t = await createTestApp(dialect, { via: bouncer?.via })
  }, 60000)
  afterAll(async () => {
    await t?.close()
    if (bouncer) {
      // the app's pool of 10 went through at most 3 server connections (pgbouncer's pool)
      const servers = (await bouncer.show('SERVERS')).length
      expect(servers).toBeLessThanOrEqual(3)
      console.log(`pgbouncer: ${servers} server connections open at the end`)
      await bouncer.stop()
    }
    console.log(`money properties on ${name}: ${JSON.stringify(stats)}`)
  })

  test(`${runs} random programs with parallel bursts keep the books`, async () => {
    await fc.assert(fc.asyncProperty(program, async (ops) => {
      stats.runs++
      const shoppers: Shopper[] = []
      for (let i = 0; i < 3; i++) {
        const s = await makeShopper(t.app, t.db, t.clock)
        if (i < 2) await topUp(t.app, s, 4000) // the third starts with nothing
        shoppers.push(s)
      }
      const series = [
        await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, priceCents: 500 }),
        await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, priceCents: 1200 })
      ]
      const last = new Map<number, { body: Record<string, unknown>; answer: unknown }>()

      const balance = async (s: Shopper) => {
        const w = await t.db.selectFrom('wallets').select(['cash_cents', 'credit_cents']).where('user_id', '=', s.id).executeTakeFirst()
        return Number(w?.cash_cents ?? 0) + Number(w?.credit_cents ?? 0)
      }
      const purchaseBody = async (op: { series: number; slots: number[] | 'whole' }, s: Shopper) => ({
        caseId: await currentCaseId(t.app, series[op.series], s.token), acknowledged: true, idempotencyKey: `prop-${dialect}-${++keys}`,
        ...(op.slots === 'whole' ? { wholeCase: true } : { slots: op.slots })
      } as Record<string, unknown>)

      // solo: not inside a burst, so nothing else moves this shopper's wallet meanwhile
      const run = async (op: Op, solo: boolean): Promise<void> => {
        stats.operations++
        if (op.kind === 'burst') { await Promise.all(op.ops.map(o => run(o, false))); return }
        const s = shoppers[op.who]
        if (op.kind === 'twins') {
          const body = await purchaseBody(op, s)
          const other = { ...body, slots: [op.slots === 'whole' || op.slots[0] !== 4 ? 4 : 3], wholeCase: undefined }
          const bodies = Array.from({ length: op.copies }, (_, i) => op.otherBody && i === op.copies - 1 ? other : body)
          const answers = (await Promise.all(bodies.map(b => post(t.app, '/api/casePurchase', b, { token: s.token })))).map(a => a.body)
          if (op.otherBody) stats.reuseRaces++
          else stats.twinRaces++
          // the key is applied at most once, and an applied answer is the one stored for the key
          const tx = await t.db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', `purchase:${s.id}:${body.idempotencyKey as string}`).execute()
          expect(tx.length).toBeLessThanOrEqual(1)
          const applied = answers.filter(a => a.code === 200)
          expect(new Set(applied.map(a => a.data.purchaseId)).size).toBe(tx.length)
          if (tx.length) {
            stats.twinsApplied++
            const row = await t.db.selectFrom('idempotency_keys').select('response').where('user_id', '=', s.id).where('key', '=', body.idempotencyKey as string).executeTakeFirstOrThrow()
            for (const a of applied) expect(a.data).toEqual(JSON.parse(row.response!))
            // a copy with the other body was not applied (a 409, or its own refusal if it ran before the winner
            // stored the key); sent again now, it is a 409 and the winner's body replays the stored answer
            const winner = bodies[answers.findIndex(a => a.code === 200)]
            answers.forEach((a, i) => { if (bodies[i] !== winner) expect(a.code).not.toBe(200) })
            const loser = bodies.find(b => b !== winner)
            if (loser) expect((await post(t.app, '/api/casePurchase', loser, { token: s.token })).body.code).toBe(409)
            expect((await post(t.app, '/api/casePurchase', winner, { token: s.token })).body.data).toEqual(JSON.parse(row.response!))
          }
          for (const a of answers) expect([200, 409, 422]).toContain(a.code)
          return
        }
        if (op.kind === 'topup') {
          stats.topups++
          const opId = (await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: s.id }, { token: s.token })).body.data
          if (typeof opId !== 'string') return // 429: order numbers are rate limited per user
          await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, opId, amountCents: op.cents, channel: 'sandbox' }, { token: s.token })
          const before = solo ? await balance(s) : 0
          const [pay, cancel, payAgain] = await Promise.all([
            post(t.app, '/api/sandboxPay', { opId }, { token: s.token }),
            op.cancel ? post(t.app, '/generalOrder/cancelPay', { opId }, { token: s.token }) : Promise.resolve(null),
            op.payTwice ? post(t.app, '/api/sandboxPay', { opId }, { token: s.token }) : Promise.resolve(null)
          ])
          if (op.cancel) stats.cancels++
          if (op.payTwice) stats.doublePays++
          const row = await t.db.selectFrom('orders').select('status').where('op_id', '=', opId).executeTakeFirstOrThrow()
          // each answer tells the truth about the order: paid, every pay answers 200 and a cancel 422;
          // canceled, every pay answers 409 and the cancel 200
          expect(['paid', 'canceled']).toContain(row.status)
          for (const a of [pay, payAgain]) if (a) expect(a.body.code).toBe(row.status === 'paid' ? 200 : 409)
          if (cancel) expect(cancel.body.code).toBe(row.status === 'paid' ? 422 : 200)
          const credits = await t.db.selectFrom('ledger_transactions').select('id').where('kind', '=', 'topup').where('reference', '=', opId).execute()
          expect(credits).toHaveLength(row.status === 'paid' ? 1 : 0)
          if (solo) expect(await balance(s) - before).toBe(row.status === 'paid' ? op.cents : 0)
          return
        }
        if (op.kind === 'replay') {
          const prev = last.get(op.who)
          if (!prev) return
          stats.replays++
          const again = await post(t.app, '/api/casePurchase', prev.body, { token: s.token })
          if ((prev.answer as { code: number }).code === 200) {
            // an applied request is stored: its replay answers the first result and applies nothing
            expect(again.body).toEqual(prev.answer)
          } else {
            // a refused request stored nothing: its retry is a new attempt
            expect([200, 409, 422]).toContain(again.body.code)
            last.set(op.who, { body: prev.body, answer: again.body })
          }
          return
        }
        if (op.kind === 'reuse') {
          const prev = last.get(op.who)
          if (!prev || (prev.answer as { code: number }).code !== 200) return
          const other = await post(t.app, '/api/casePurchase', { ...prev.body, slots: [op.slot], wholeCase: undefined }, { token: s.token })
          // the same key with another body is a 409 (unless it happens to be the same body)
          const same = JSON.stringify((prev.body as { slots?: number[] }).slots) === JSON.stringify([op.slot])
          if (!same) { stats.conflicts++; expect(other.body.code).toBe(409) }
          return
        }
        const body = await purchaseBody(op, s)
        const before = await post(t.app, '/api/walletBalance', {}, { token: s.token })
        const beforeCents = solo ? await balance(s) : 0
        const r = await post(t.app, '/api/casePurchase', body, { token: s.token })
        expect([200, 409, 422]).toContain(r.body.code)
        last.set(op.who, { body, answer: r.body })
        if (solo) {
          // the wallet moves by exactly the price of an applied purchase, and not at all for a refused one
          stats.soloChecks++
          expect(beforeCents - await balance(s)).toBe(r.body.code === 200 ? r.body.data.totalCents : 0)
        }
        if (r.body.code !== 200) stats.refused++
        if (r.body.code === 200) {
          stats.purchases++
          const ids = (r.body.data.prizes as Array<{ prizeId: number }>).map(p => p.prizeId)
          const stored = await t.db.selectFrom('prizes').select(['id', 'user_id']).where('id', 'in', ids).execute()
          expect(stored).toHaveLength(ids.length)
          expect(stored.every(p => Number(p.user_id) === s.id)).toBe(true)
        } else if (r.body.code === 422 && r.body.data?.reason === 'insufficient_balance' && before.body.code === 200) {
          // refused for the money: the shopper lost nothing (other shoppers' bursts do not touch this wallet)
          expect(r.body.data.shortfallCents).toBeGreaterThan(0)
        }
      }

      for (const op of ops) await run(op, true)
      expect(await invariantViolations(t.db)).toEqual([])
    }), { numRuns: runs, seed, endOnFailure: true })
  }, 240000)
})
