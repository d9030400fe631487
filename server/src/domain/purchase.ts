/**
 * Buying boxes of a case (POST /api/casePurchase). One database transaction, under the request's
 * idempotency key:
 *   1. lock the case row (an UPDATE of its sold count, only while it is on sale)
 *   2. mark the slots sold with one conditional UPDATE (... AND sold_to IS NULL); fewer rows than asked:
 *      409 naming the first slot already sold, everything rolls back
 *   3. lock the wallet, check a minor's daily cap, spend credit first then cash with a conditional
 *      UPDATE (422 with the shortfall when the balances do not cover it)
 *   4. write the ledger transaction, the purchase and its prizes (status warehouse)
 *   5. when no slot is left: the case is sold out and revealed, and the next case is made
 * Locks are always taken in this order (case, wallet, series, idempotency key), so purchases cannot
 * deadlock one another.
 */
import { sql, type Kysely } from 'kysely'
import type { PrizeResult, PurchaseRequest, PurchaseResult } from '../../../types/shop'
import type { DailyCapData, InsufficientBalanceData, SlotFailureData } from '../../../types/shop'
import type { Database } from '../db/schema'
import type { Dialect } from '../db/dialect'
import { forUpdate } from '../db/lock'
import { iso, type Clock } from '../clock'
import { ApiFailure, fail } from '../http/envelope'
import { ageRecord, purchaseGate } from './age'
import { createCase } from './cases'
import { designInfo, seriesCacheOf } from './catalogue'
import { shopDayStart } from './days'
import { idempotent } from './idempotency'
import { postTransaction } from './ledger'
import { lockBalance, takeFromWallet } from './wallet'

type Db = Kysely<Database>

export interface PurchaseDeps { db: Db; dialect: Dialect; clock: Clock }

export const yuan = (cents: number) => (cents / 100).toFixed(2)

function checkSlotList (request: PurchaseRequest): void {
  const hasSlots = request.slots !== undefined
  if (hasSlots === (request.wholeCase !== undefined)) throw fail.field('slots', 'purchase.slotsOrWholeCase')
  if (hasSlots) {
    const seen = new Set<number>()
    for (const slot of request.slots!) {
      if (seen.has(slot)) throw new ApiFailure(400, 'slot.duplicate', { field: 'slots', slot }, { field: 'slots', slot })
      seen.add(slot)
    }
  }
}

export async function purchase (deps: PurchaseDeps, userId: number, request: PurchaseRequest): Promise<{ result: PurchaseResult; replayed: boolean }> {
  const { db, clock } = deps
  checkSlotList(request)
  const dailyCap = purchaseGate(await ageRecord(db, clock, userId))
  const { idempotencyKey, ...body } = request
  return idempotent(db, clock, { userId, key: idempotencyKey, scope: 'casePurchase', body }, async trx => {
    const now = clock()
    const soldAt = iso(now)
    const caseId = request.caseId
    // 1. the case row: locked (an UPDATE) and its count of sold slots moved in one statement
    const c = await trx.updateTable('cases')
      .set(request.wholeCase ? { sold_count: sql<number>`size` } : { sold_count: sql<number>`sold_count + ${request.slots!.length}` })
      .where('id', '=', caseId).where('status', '=', 'on_sale')
      .returning(['series_id', 'size', 'sold_count'])
      .executeTakeFirst()
    if (!c) {
      const known = await trx.selectFrom('cases').innerJoin('series', 'series.id', 'cases.series_id').select('cases.id')
        .where('cases.id', '=', caseId).where('series.status', 'in', ['on_sale', 'retired']).executeTakeFirst()
      throw known ? fail.conflict('case.notOnSale') : fail.notFound('case.notFound')
    }
    const seriesId = Number(c.series_id)
    const seriesRow = await trx.selectFrom('series').select(['status', 'price_cents', 'version']).where('id', '=', seriesId).executeTakeFirstOrThrow()
    if (seriesRow.status !== 'on_sale') throw seriesRow.status === 'retired' ? fail.conflict('case.notOnSale') : fail.notFound('case.notFound')
    if (request.slots) {
      const outside = request.slots.find(s => s > c.size)
      if (outside !== undefined) throw new ApiFailure(400, 'slot.outOfRange', { field: 'slots', slot: outside, size: c.size }, { field: 'slots', slot: outside })
    }

    // 2. the slots: sold only if nobody has them
    let q = trx.updateTable('case_slots').set({ sold_to: userId, sold_at: soldAt })
      .where('case_id', '=', caseId).where('sold_to', 'is', null)
    if (request.slots) q = q.where('slot', 'in', request.slots)
    const marked = await q.returning(['slot', 'design_id']).execute()
    const slots = request.slots ?? marked.map(m => m.slot).sort((a, b) => a - b)
    if (!slots.length) throw fail.conflict('case.notOnSale')
    if (marked.length < slots.length) {
      const got = new Set(marked.map(m => m.slot))
      const taken = slots.find(s => !got.has(s))!
      throw new ApiFailure(409, 'slot.sold', { slot: taken }, { field: 'slots', slot: taken } satisfies SlotFailureData)
    }

    // 3. the money: credit first, then cash, never below zero
    const total = Number(seriesRow.price_cents) * slots.length
    const balance = await lockBalance(trx, deps.dialect, userId)
    if (dailyCap !== null) {
      const spent = await trx.selectFrom('purchases').select(eb => eb.fn.sum<number>('total_cents').as('s'))
        .where('user_id', '=', userId).where('created_at', '>=', iso(shopDayStart(now))).executeTakeFirst()
      const left = Math.max(0, dailyCap - Number(spent?.s ?? 0))
      if (total > left) {
        throw fail.unprocessable('age.dailyCap', { cap: yuan(dailyCap), left: yuan(left) }, { reason: 'daily_cap', capCents: dailyCap, leftCents: left } satisfies DailyCapData)
      }
    }
    const creditCents = Math.min(balance.creditCents, total)
    const cashCents = total - creditCents
    const insufficient = (shortfall: number) => fail.unprocessable('wallet.insufficient', { shortfall: yuan(shortfall) },
      { reason: 'insufficient_balance', shortfallCents: shortfall, totalCents: total } satisfies InsufficientBalanceData)
    if (cashCents > balance.cashCents) throw insufficient(cashCents - balance.cashCents)
    const after = await takeFromWallet(trx, clock, userId, { cashCents, creditCents })
    if (!after) throw insufficient(total - balance.cashCents - balance.creditCents)

    // 4. the books, the purchase and its prizes
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
    const { id: purchaseId } = await trx.insertInto('purchases').values({
      user_id: userId, case_id: caseId, series_id: seriesId, slots: JSON.stringify(slots),
      total_cents: total, credit_cents: creditCents, cash_cents: cashCents, tx_id: txId, created_at: soldAt
    }).returning('id').executeTakeFirstOrThrow()
    const designOf = new Map(marked.map(m => [m.slot, Number(m.design_id)]))
    const prizes = await trx.insertInto('prizes').values(slots.map(slot => ({
      user_id: userId, series_id: seriesId, design_id: designOf.get(slot)!, case_id: caseId, slot,
      purchase_id: Number(purchaseId), status: 'warehouse' as const, created_at: soldAt, updated_at: soldAt
    }))).returning(['id', 'slot']).execute()

    // 5. sold out: revealed, and the series keeps a case on sale
    if (c.sold_count >= c.size) {
      await trx.updateTable('cases').set({ status: 'sold_out', revealed_at: soldAt }).where('id', '=', caseId).execute()
      // sell-outs of one series take turns here, so the last one always sees the others' results
      await forUpdate(deps.dialect, trx.selectFrom('series').select('id').where('id', '=', seriesId)).execute()
      const open = await trx.selectFrom('cases').select('id').where('series_id', '=', seriesId).where('status', '=', 'on_sale').limit(1).execute()
      if (!open.length) await createCase(trx, clock, seriesId)
    }

    const series = (await seriesCacheOf(db).get(trx, seriesId, seriesRow.version))!
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
      balance: after
    }
  })
}
