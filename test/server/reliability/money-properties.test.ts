/**
 * Property-based money tests (fast-check), on SQLite and PostgreSQL: random sequences, with parallel
 * bursts, of top-ups (the order flow and the sandbox), purchases (slots or a whole case, small cases so
 * that sell-outs and new cases happen), cancels, replays of an idempotency key and reuse of a key with
 * another body. Each answer is checked against what it claims, and after every run the books are
 * checked in the database (support/invariants.ts).
 */
import fc from 'fast-check'
import { testDialects } from '../support/db'
import { createTestApp, post, type TestApp } from '../support/app'
import { currentCaseId, makeSeries, makeShopper, topUp, type Shopper } from '../support/shop'
import { invariantViolations } from '../support/invariants'
import { TOPUP_PRODUCT_ID } from '../../../types/limits'

const RUNS = 25

type Op =
  | { kind: 'topup'; who: number; cents: number; cancel: boolean }
  | { kind: 'buy'; who: number; series: number; slots: number[] | 'whole' }
  | { kind: 'replay'; who: number }
  | { kind: 'reuse'; who: number; slot: number }
  | { kind: 'burst'; ops: Op[] }

const who = fc.integer({ min: 0, max: 2 })
const single: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('topup' as const), who, cents: fc.constantFrom(100, 500, 1500, 5000), cancel: fc.boolean() }),
  fc.record({
    kind: fc.constant('buy' as const), who, series: fc.integer({ min: 0, max: 1 }),
    slots: fc.oneof(fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }), fc.constant('whole' as const))
  }),
  fc.record({ kind: fc.constant('replay' as const), who }),
  fc.record({ kind: fc.constant('reuse' as const), who, slot: fc.integer({ min: 1, max: 4 }) })
)
const program = fc.array(fc.oneof({ weight: 4, arbitrary: single }, { weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const), ops: fc.array(single, { minLength: 2, maxLength: 8 }) }) }), { minLength: 5, maxLength: 25 })

describe.each(testDialects())('money properties on %s', (dialect) => {
  let t: TestApp
  let keys = 0
  const stats = { runs: 0, operations: 0, purchases: 0, topups: 0, replays: 0, conflicts: 0 }
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => {
    await t.close()
    console.log(`money properties on ${dialect}: ${JSON.stringify(stats)}`)
  })

  test(`${RUNS} random programs with parallel bursts keep the books`, async () => {
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

      const run = async (op: Op): Promise<void> => {
        stats.operations++
        if (op.kind === 'burst') { await Promise.all(op.ops.map(run)); return }
        const s = shoppers[op.who]
        if (op.kind === 'topup') {
          stats.topups++
          const opId = (await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: s.id }, { token: s.token })).body.data
          if (typeof opId !== 'string') return // 429: order numbers are rate limited per user
          await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, opId, amountCents: op.cents, channel: 'sandbox' }, { token: s.token })
          const [pay, cancel] = await Promise.all([
            post(t.app, '/api/sandboxPay', { opId }, { token: s.token }),
            op.cancel ? post(t.app, '/generalOrder/cancelPay', { opId }, { token: s.token }) : Promise.resolve(null)
          ])
          const row = await t.db.selectFrom('orders').select('status').where('op_id', '=', opId).executeTakeFirstOrThrow()
          // each answer tells the truth about the order
          expect(pay.body.code === 200).toBe(row.status === 'paid')
          if (cancel) expect(cancel.body.code === 200).toBe(row.status === 'canceled')
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
        const caseId = await currentCaseId(t.app, series[op.series], s.token)
        const body: Record<string, unknown> = {
          caseId, acknowledged: true, idempotencyKey: `prop-${dialect}-${++keys}`,
          ...(op.slots === 'whole' ? { wholeCase: true } : { slots: op.slots })
        }
        const before = await post(t.app, '/api/walletBalance', {}, { token: s.token })
        const r = await post(t.app, '/api/casePurchase', body, { token: s.token })
        expect([200, 409, 422]).toContain(r.body.code)
        last.set(op.who, { body, answer: r.body })
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

      for (const op of ops) await run(op)
      expect(await invariantViolations(t.db)).toEqual([])
    }), { numRuns: RUNS, seed: dialect === 'sqlite' ? 7 : 11, endOnFailure: true })
  }, 240000)
})
