/**
 * Buying boxes (POST /api/casePurchase) and checking a purchase without buying (POST /api/purchaseCheck).
 * Both run the same rules, in one place (assessPurchase), in this order:
 *   1. the body: exactly one of slots and wholeCase, no slot twice (400)
 *   2. the age gate (422: no birth date, under 8, a minor without a guardian's consent)
 *   3. the case and its series on sale (404 / 409), the slots inside the case (400)
 *   4. the slots still free (409 naming the first one sold; a whole case with none left: 409)
 *   5. the price the buyer was shown, when given (409)
 *   6. a minor's daily cap and the shopper's own daily and monthly limits (422; the stricter names
 *      itself; spending counts boxes, prop cards and shipping fees, see security.ts)
 *   7. credit first, then cash: what the wallet lacks is the shortfall
 * (The acknowledgement is part of the body's schema: acknowledged must be true, else 400.)
 * A check answers the plan, shortfall included. A purchase runs the same assessment inside one database
 * transaction under its idempotency key, with the case row and then the wallet row locked while they
 * are read, refuses a shortfall (422), and then moves: the slots by one conditional UPDATE
 * (... AND sold_to IS NULL), the money by a conditional UPDATE, the ledger transaction, the purchase
 * and its prizes (status warehouse); when no slot is left the case is sold out and revealed, and the
 * next case is made. Locks are always taken in this order (case, wallet, series, idempotency key), so
 * purchases cannot deadlock one another.
 * On PostgreSQL a purchase is one statement instead (purchaseOnPostgres.ts, the function of migration
 * 0026): the same rules in the same order, the same locks in the same order, the same moves; a change
 * to a rule here is a change there too (test/server/purchase-postgres.test.ts compares the two paths).
 */
import { sql, type Kysely } from 'kysely'
import type { PrizeResult, PurchaseCheckRequest, PurchaseCheckResult, PurchaseRequest, PurchaseResult, WalletBalance } from '../../../../types/shop'
import type { Database } from '../../db/schema'
import { dialectOf, forUpdate } from '../../db/lock'
import { perCount, prepared } from '../../db/prepared'
import { iso } from '../../core/clock'
import { ageRecord, purchaseGate } from '../account/age'
import { createCase } from '../catalogue/cases'
import { designInfo, seriesCacheOf } from '../catalogue/catalogue'
import { idempotent } from '../money/idempotency'
import { grantCards, XRAY_CARDS_PER_WHOLE_CASE } from '../prizes/propCards'
import { postTransaction } from '../money/ledger'
import { balanceOf, lockBalance, takeFromWallet } from '../money/wallet'
import { checkSpendingCaps } from '../account/spendingCaps'
import { KujiSteps, purchaseOnPostgres } from './purchaseOnPostgres'
import { checkSlotList, purchaseRefusal, type PurchaseDeps } from './purchaseRules'
import { drawDoubleChance, kujiSeriesOfCase, requireTurn } from '../catalogue/kuji'

export type { PurchaseDeps } from './purchaseRules'

type Db = Kysely<Database>

// the statements of every purchase, compiled once (src/db/prepared.ts)
const caseQuery = (db: Db, caseId: number) => db.selectFrom('cases').innerJoin('series', 'series.id', 'cases.series_id')
  .select(['cases.series_id', 'cases.size', 'cases.status', 'series.status as series_status', 'series.price_cents', 'series.version'])
  .where('cases.id', '=', caseId)
/** The case and its series (nothing locked). */
const caseRow = prepared(caseQuery)
/** The same, with the case row locked (PostgreSQL; only the case row). */
const lockedCaseRow = prepared((db: Db, caseId: number) => forUpdate(dialectOf(db), caseQuery(db, caseId), 'cases'))
/** Counts the slots sold into the case while it is on sale. */
const countSold = prepared((db: Db, sold: number, caseId: number) => db.updateTable('cases').set({ sold_count: sql<number>`sold_count + ${sold}` })
  .where('id', '=', caseId).where('status', '=', 'on_sale')
  .returning(['size', 'sold_count', 'drop_id']))
const insertPurchase = prepared((db: Db, userId: number, caseId: number, seriesId: number, slots: string, total: number, credit: number, cash: number, txId: number, createdAt: string) => db
  .insertInto('purchases').values({
    user_id: userId, case_id: caseId, series_id: seriesId, slots, total_cents: total, credit_cents: credit, cash_cents: cash, tx_id: txId, created_at: createdAt
  }).returning('id'))
const slotQuery = (db: Db, caseId: number) => db.selectFrom('case_slots')
  .leftJoin('slot_reservations', join => join.onRef('slot_reservations.case_id', '=', 'case_slots.case_id').onRef('slot_reservations.slot', '=', 'case_slots.slot'))
  .select(['case_slots.slot', 'case_slots.sold_to', 'slot_reservations.user_id as held_by', 'slot_reservations.expires_at as held_until'])
  .where('case_slots.case_id', '=', caseId)
/** The slots asked for, with any X-ray hold on them (one statement per number of slots). */
const slotRowsOf = perCount(count => prepared((db: Db, caseId: number, ...slots: number[]) => slotQuery(db, caseId)
  .where('case_slots.slot', 'in', slots.slice(0, count)).orderBy('case_slots.slot')))
/** The free slots of a case, with any X-ray hold on them. */
const freeSlotRows = prepared((db: Db, caseId: number) => slotQuery(db, caseId).where('case_slots.sold_to', 'is', null).orderBy('case_slots.slot'))
/** Sells the slots nobody has (one statement per number of slots). */
const markSold = perCount(count => prepared((db: Db, userId: number, soldAt: string, caseId: number, ...slots: number[]) => db.updateTable('case_slots')
  .set({ sold_to: userId, sold_at: soldAt })
  .where('case_id', '=', caseId).where('sold_to', 'is', null).where('slot', 'in', slots.slice(0, count))
  .returning(['slot', 'design_id'])))
/** The prizes of a purchase, one a slot (eight values a prize; one statement per number of prizes). */
const insertPrizes = perCount(count => prepared((db: Db, ...values: unknown[]) => db.insertInto('prizes').values(Array.from({ length: count }, (_, i) => {
  const [userId, seriesId, designId, caseId, slot, purchaseId, createdAt, updatedAt] = values.slice(i * 8, i * 8 + 8) as [number, number, number, number, number, number, string, string]
  return { user_id: userId, series_id: seriesId, design_id: designId, case_id: caseId, slot, purchase_id: purchaseId, status: 'warehouse' as const, created_at: createdAt, updated_at: updatedAt }
})).returning(['id', 'slot'])))

/**
 * What a purchase would do, as assessed by every rule (with the series' version, for its cache, and
 * whether any X-ray hold, the buyer's or a lapsed one, sits on the slots).
 */
export interface PurchasePlan { check: PurchaseCheckResult; seriesVersion: number; reserved: boolean }

const insufficient = purchaseRefusal.insufficient

/**
 * Every rule of a purchase, read from `db` and changing nothing; throws the refusal. With `lock` (inside
 * the purchase's transaction) the case row and then the wallet row are locked as they are read
 * (PostgreSQL), so what was checked still holds when the purchase moves.
 */
export async function assessPurchase (deps: PurchaseDeps, db: Db, userId: number, request: PurchaseCheckRequest, lock: boolean): Promise<PurchasePlan> {
  const { clock } = deps
  checkSlotList(request)
  const dailyCap = purchaseGate(await ageRecord(db, clock, userId))
  const caseId = request.caseId

  // the case and its series, on sale (one query; only the case row is locked)
  const c = await (lock ? lockedCaseRow : caseRow).first(db, caseId)
  if (!c || c.status !== 'on_sale' || c.series_status !== 'on_sale') {
    const known = c && (c.series_status === 'on_sale' || c.series_status === 'retired')
    throw known ? purchaseRefusal.caseNotOnSale() : purchaseRefusal.caseNotFound()
  }
  const seriesId = Number(c.series_id)
  if (request.slots) {
    const outside = request.slots.find(s => s > c.size)
    if (outside !== undefined) throw purchaseRefusal.slotOutOfRange(outside, c.size)
  }

  // the slots, still free, with any X-ray hold on them (one query)
  const { rows: slotRows } = request.slots
    ? await slotRowsOf(request.slots.length).execute(db, caseId, ...request.slots)
    : await freeSlotRows.execute(db, caseId)
  // (a kuji set's Last One, in the slot after its tickets, is won with the final ticket, never bought)
  const freeSlots = new Set(slotRows.filter(r => r.sold_to === null && r.slot <= c.size).map(r => r.slot))
  const slots = request.slots ?? [...freeSlots].sort((a, b) => a - b)
  if (!slots.length) throw purchaseRefusal.caseNotOnSale()
  const taken = slots.find(s => !freeSlots.has(s))
  if (taken !== undefined) throw purchaseRefusal.slotSold(taken)
  // slots an X-ray card holds for another shopper (the holder may buy them)
  const now = iso(clock())
  const held = slotRows.find(r => r.held_by !== null && Number(r.held_by) !== userId && r.held_until !== null && r.held_until > now)
  if (held) throw purchaseRefusal.slotReserved(held.slot)
  const reserved = slotRows.some(r => r.held_by !== null)

  // the price the buyer was shown
  const priceCents = Number(c.price_cents)
  if (request.priceCents !== undefined && request.priceCents !== priceCents) {
    throw purchaseRefusal.priceChanged(priceCents)
  }
  const total = priceCents * slots.length

  // the wallet (locked before the spending is summed, so two purchases of one shopper take turns), then
  // a minor's daily cap and the shopper's own daily and monthly limits: the stricter refuses
  const balance: WalletBalance = lock ? await lockBalance(db, userId) : await balanceOf(db, userId)
  const { minorLeftCents } = await checkSpendingCaps(db, clock, userId, total, dailyCap)
  const dailyLeftCents = minorLeftCents === null ? null : minorLeftCents - total

  // credit first, then cash
  const creditCents = Math.min(balance.creditCents, total)
  const cashCents = total - creditCents
  const check: PurchaseCheckResult = {
    caseId,
    seriesId,
    slots,
    priceCents,
    totalCents: total,
    creditCents,
    cashCents,
    shortfallCents: Math.max(0, cashCents - balance.cashCents),
    balance,
    dailyLeftCents
  }
  return { check, seriesVersion: c.version, reserved }
}

/** POST /api/purchaseCheck: the assessment alone; nothing is locked, bought or charged. */
export async function checkPurchase (deps: PurchaseDeps, userId: number, request: PurchaseCheckRequest): Promise<PurchaseCheckResult> {
  return (await assessPurchase(deps, deps.db, userId, request, false)).check
}

/**
 * POST /api/casePurchase. On PostgreSQL in one statement (purchaseOnPostgres.ts: the same rules in the
 * same order, in the function migration 0026 installs); on SQLite step by step (purchaseInSteps).
 */
export async function purchase (deps: PurchaseDeps, userId: number, request: PurchaseRequest, sessionId: number | null = null): Promise<{ result: PurchaseResult; replayed: boolean }> {
  // a kuji set's draws go step by step on both databases: the turn is checked and the Last One given
  // in the purchase's transaction (one shopper draws at a time, so one round trip each is no matter).
  // PostgreSQL's function tells a kuji set from the row it reads anyway (migration 0048), so a blind-box
  // purchase still costs one statement
  if (deps.dialect === 'postgres') {
    try {
      return await purchaseOnPostgres(deps, userId, request, sessionId)
    } catch (err) {
      if (err instanceof KujiSteps) return purchaseInSteps(deps, userId, request, err.seriesId)
      throw err
    }
  }
  return purchaseInSteps(deps, userId, request, await kujiSeriesOfCase(deps.db, request.caseId))
}

/**
 * A purchase statement by statement from TypeScript (SQLite, and a kuji set's draws on both; on
 * PostgreSQL the reference the tests compare with). `kujiSeriesId`: the case is a set of that kuji
 * series: the buyer must be in their turn, and the final ticket's buyer is given the Last One.
 */
export async function purchaseInSteps (deps: PurchaseDeps, userId: number, request: PurchaseRequest, kujiSeriesId: number | null = null): Promise<{ result: PurchaseResult; replayed: boolean }> {
  const { db, clock } = deps
  const { idempotencyKey, ...body } = request
  return idempotent(db, clock, { userId, key: idempotencyKey, scope: 'casePurchase', body }, async trx => {
    const plan = await assessPurchase(deps, trx, userId, body, true)
    // the turn, once the set's row is held: a turn that ran out before this moment draws nothing
    if (kujiSeriesId !== null) await requireTurn(trx, clock, kujiSeriesId, userId)
    const { caseId, seriesId, slots, totalCents: total, creditCents, cashCents, balance } = plan.check
    if (plan.check.shortfallCents > 0) throw insufficient(plan.check.shortfallCents, total)
    const soldAt = iso(clock())

    // the case's count of sold slots (its row is locked), then the slots, sold only if nobody has them
    const c = await countSold.first(trx, slots.length, caseId)
    if (!c) throw purchaseRefusal.caseNotOnSale()
    const { rows: marked } = await markSold(slots.length).execute(trx, userId, soldAt, caseId, ...slots)
    if (marked.length < slots.length) {
      const got = new Set(marked.map(m => m.slot))
      const taken = slots.find(s => !got.has(s))!
      throw purchaseRefusal.slotSold(taken)
    }

    // the buyer's own X-ray holds (and lapsed ones) on these slots are used up; a whole case earns an X-ray card
    if (plan.reserved) await trx.deleteFrom('slot_reservations').where('case_id', '=', caseId).where('slot', 'in', slots).execute()
    const xrayCardsEarned = body.wholeCase && kujiSeriesId === null ? XRAY_CARDS_PER_WHOLE_CASE : 0
    if (xrayCardsEarned) await grantCards(trx, clock, userId, 'xray', xrayCardsEarned)

    // the money: never below zero
    const after = await takeFromWallet(trx, clock, userId, { cashCents, creditCents })
    if (!after) throw insufficient(Math.max(0, total - balance.cashCents - balance.creditCents), total)

    // the books, the purchase and its prizes
    const txId = await postTransaction(trx, clock, {
      kind: 'purchase',
      reference: `case ${caseId} slots ${slots.join(',')}`,
      idempotencyKey: `purchase:${userId}:${idempotencyKey}`,
      userId,
      lines: [
        { account: 'user_credit', userId, amountCents: -creditCents },
        { account: 'user_cash', userId, amountCents: -cashCents },
        { account: 'house_sales', amountCents: total }
      ]
    })
    const { id: purchaseId } = (await insertPurchase.first(trx, userId, caseId, seriesId, JSON.stringify(slots), total, creditCents, cashCents, txId, soldAt))!
    const designOf = new Map(marked.map(m => [m.slot, Number(m.design_id)]))
    const { rows: prizes } = await insertPrizes(slots.length).execute(trx, ...slots.flatMap(slot => [
      userId, seriesId, designOf.get(slot)!, caseId, slot, Number(purchaseId), soldAt, soldAt
    ]))

    // the final ticket of a kuji set: its buyer is given the Last One, from the slot after the tickets
    // (the set's row is held, so exactly one purchase sees the count reach the size)
    if (kujiSeriesId !== null && c.sold_count >= c.size) {
      const { rows: won } = await markSold(1).execute(trx, userId, soldAt, caseId, c.size + 1)
      for (const w of won) {
        designOf.set(w.slot, Number(w.design_id))
        const { rows: lastOne } = await insertPrizes(1).execute(trx, userId, seriesId, Number(w.design_id), caseId, w.slot, Number(purchaseId), soldAt, soldAt)
        prizes.push(...lastOne)
      }
      // the Double Chance, drawn now over the set's tickets: the buyer's own wins are in their answer
      for (const g of await drawDoubleChance(trx, caseId, c.size, soldAt)) {
        if (g.userId !== userId) continue
        designOf.set(g.slot, g.designId)
        prizes.push({ id: g.id, slot: g.slot })
      }
    }

    // sold out: revealed, and the series keeps a case on sale
    if (c.sold_count >= c.size) {
      await trx.updateTable('cases').set({ status: 'sold_out', revealed_at: soldAt }).where('id', '=', caseId).execute()
      await trx.deleteFrom('case_leases').where('case_id', '=', caseId).execute()
    }
    // a series selling by a drop gets no case on demand (createCase makes none): a drop's sell-outs
    // (hundreds a minute) do not take turns on the series row, each waiting for the one before to commit
    if (c.sold_count >= c.size && c.drop_id === null) {
      // sell-outs of one series take turns here, so the last one always sees the others' results
      await forUpdate(deps.dialect, trx.selectFrom('series').select('id').where('id', '=', seriesId)).execute()
      const open = await trx.selectFrom('cases').select('id').where('series_id', '=', seriesId).where('status', '=', 'on_sale').limit(1).execute()
      if (!open.length) await createCase(trx, clock, seriesId)
    }

    const series = (await seriesCacheOf(db).get(trx, seriesId, plan.seriesVersion))!
    const designRows = new Map(series.designs.map(d => [Number(d.id), d]))
    const prizeResults: PrizeResult[] = prizes
      .map(p => ({ prizeId: Number(p.id), caseId, slot: p.slot!, design: designInfo(designRows.get(designOf.get(p.slot!)!)!, series.odds) }))
      .sort((a, b) => a.slot - b.slot)
    return {
      purchaseId: Number(purchaseId),
      caseId,
      seriesId,
      totalCents: total,
      spentCreditCents: creditCents,
      spentCashCents: cashCents,
      prizes: prizeResults,
      balance: after,
      xrayCardsEarned
    }
  })
}
