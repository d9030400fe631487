/**
 * Props (types/props.ts). What a prop shows is read from the case's real arrangement inside the same
 * transaction, so it is always true:
 *   shake / hint  a design of the series that the slot is NOT (one not yet shown to this user for that
 *                 slot when there is one), chosen with the CSPRNG
 *   X-ray         the design the slot IS, and the slot held for the user for 10 minutes: others get a
 *                 409 "reserved" when they try to buy it (purchase.ts), the holder may buy it
 * A shake counts against 3 a (China) day by one conditional upsert; a card is taken by a conditional
 * UPDATE (count > 0); a hint card once per slot (a partial unique index backs it); every use is a
 * prop_uses row. Each use runs under the request's idempotency key.
 */
import { kujiSeriesOfCase } from '../catalogue/kuji'
import { randomInt } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { PROP_LIMITS } from '../../../../types/limits'
import type { PropBuyRequest, PropBuyResult, PropCard, PropShown, PropUseRequest, PropUseResult, PropsState } from '../../../../types/props'
import type { InsufficientBalanceData } from '../../../../types/shop'
import type { Database } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import { isUniqueViolation } from '../../db/errors'
import { forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { designInfo, loadSeries } from '../catalogue/catalogue'
import { msUntilNextDay, shopDay } from '../../core/days'
import { idempotent } from '../money/idempotency'
import { grantCards } from './propCards'
import { postTransaction } from '../money/ledger'
import { yuan } from '../../core/money'
import { settingsOf } from '../ops/settings'
import { ageRecord, purchaseGate } from '../account/age'
import { balanceOf, lockBalance, takeFromWallet } from '../money/wallet'
import { checkSpending } from '../account/spendingCaps'

type Db = Kysely<Database>
export interface PropDeps { db: Db; dialect: Dialect; clock: Clock }

export const SHAKE_COUNTER = 'shake'
const RESERVATION_MS = PROP_LIMITS.reservationMinutes * 60_000

export async function propsState (db: Db, clock: Clock, userId: number): Promise<PropsState> {
  const now = clock()
  const [cards, shakes, settings, holds] = await Promise.all([
    db.selectFrom('prop_inventory').select(['kind', 'count']).where('user_id', '=', userId).execute(),
    db.selectFrom('daily_counters').select('count').where('user_id', '=', userId).where('name', '=', SHAKE_COUNTER).where('day', '=', shopDay(now)).executeTakeFirst(),
    settingsOf(db),
    db.selectFrom('slot_reservations').select(['case_id', 'slot', 'expires_at']).where('user_id', '=', userId).where('expires_at', '>', iso(now)).orderBy('expires_at').execute()
  ])
  const held = (k: PropCard) => Number(cards.find(c => c.kind === k)?.count ?? 0)
  return {
    cards: { hint: held('hint'), xray: held('xray') },
    shakesLeft: Math.max(0, PROP_LIMITS.shakesPerDay - Number(shakes?.count ?? 0)),
    shakesPerDay: PROP_LIMITS.shakesPerDay,
    prices: { hint: settings.hintCardPriceCents, xray: settings.xrayCardPriceCents },
    reservations: holds.map(h => ({ caseId: Number(h.case_id), slot: Number(h.slot), expiresAt: h.expires_at }))
  }
}

export async function buyProps (deps: PropDeps, userId: number, request: PropBuyRequest): Promise<PropBuyResult> {
  const { db, clock } = deps
  const settings = await settingsOf(db)
  const price = request.kind === 'hint' ? settings.hintCardPriceCents : settings.xrayCardPriceCents
  const total = price * request.quantity
  const { idempotencyKey, ...body } = request
  const { result } = await idempotent(db, clock, { userId, key: idempotencyKey, scope: 'propBuy', body }, async trx => {
    // buying cards is buying (PRODUCT.md): the age gate of a box purchase first (a birth date; under 8
    // never; 8 to 17 with a guardian's consent), in the same words
    purchaseGate(await ageRecord(trx, clock, userId))
    if (total > 0) {
      const balance = await lockBalance(trx, userId)
      // cards are spending: a minor's daily cap and the shopper's own limits apply (the wallet is locked)
      await checkSpending(trx, clock, userId, total)
      const have = request.pay === 'credit' ? balance.creditCents : balance.cashCents
      const take = request.pay === 'credit' ? { creditCents: total, cashCents: 0 } : { creditCents: 0, cashCents: total }
      if (have < total || !await takeFromWallet(trx, clock, userId, take)) {
        throw fail.unprocessable('wallet.insufficient', { shortfall: yuan(total - have) },
          { reason: 'insufficient_balance', shortfallCents: total - have, totalCents: total } satisfies InsufficientBalanceData)
      }
      await postTransaction(trx, clock, {
        kind: 'prop_purchase',
        reference: `${request.quantity} ${request.kind} card(s)`,
        idempotencyKey: `props:${userId}:${idempotencyKey}`,
        userId,
        lines: [
          { account: request.pay === 'credit' ? 'user_credit' : 'user_cash', userId, amountCents: -total },
          { account: 'house_props', amountCents: total }
        ]
      })
    }
    await grantCards(trx, clock, userId, request.kind, request.quantity)
    return { paidCents: total }
  })
  return { state: await propsState(db, clock, userId), balance: await balanceOf(db, userId), paidCents: result.paidCents }
}

async function shownOf (db: Db, rows: Array<{ kind: 'shake' | PropCard; case_id: number; slot: number; design_id: number; created_at: string }>, reservations: Map<string, string>): Promise<PropShown[]> {
  if (!rows.length) return []
  const designs = await db.selectFrom('designs').select(['id', 'series_id']).where('id', 'in', [...new Set(rows.map(r => Number(r.design_id)))]).execute()
  const series = await loadSeries(db, designs.map(d => Number(d.series_id)), true)
  const seriesOf = new Map(designs.map(d => [Number(d.id), Number(d.series_id)]))
  return rows.map(r => {
    const s = series.get(seriesOf.get(Number(r.design_id))!)!
    const d = s.designs.find(x => Number(x.id) === Number(r.design_id))!
    return {
      kind: r.kind,
      caseId: Number(r.case_id),
      slot: Number(r.slot),
      design: designInfo(d, s.odds),
      isNot: r.kind !== 'xray',
      reservedUntil: r.kind === 'xray' ? reservations.get(`${r.case_id}:${r.slot}`) ?? null : null,
      at: r.created_at
    }
  })
}

async function liveHolds (db: Db, clock: Clock, userId: number): Promise<Map<string, string>> {
  const rows = await db.selectFrom('slot_reservations').select(['case_id', 'slot', 'expires_at'])
    .where('user_id', '=', userId).where('expires_at', '>', iso(clock())).execute()
  return new Map(rows.map(r => [`${r.case_id}:${r.slot}`, r.expires_at]))
}

export async function caseHints (db: Db, clock: Clock, userId: number, caseId: number): Promise<PropShown[]> {
  const rows = await db.selectFrom('prop_uses').select(['kind', 'case_id', 'slot', 'design_id', 'created_at'])
    .where('user_id', '=', userId).where('case_id', '=', caseId).orderBy('id').execute()
  return shownOf(db, rows, await liveHolds(db, clock, userId))
}

export async function propHistory (db: Db, clock: Clock, userId: number, page: number, size: number): Promise<{ list: PropShown[]; total: number }> {
  const base = db.selectFrom('prop_uses').where('user_id', '=', userId)
  const { total } = await base.select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await base.select(['kind', 'case_id', 'slot', 'design_id', 'created_at']).orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute()
  return { list: await shownOf(db, rows, await liveHolds(db, clock, userId)), total: Number(total) }
}

export async function useProp (deps: PropDeps, userId: number, request: PropUseRequest): Promise<PropUseResult> {
  const { db, clock } = deps
  const { idempotencyKey, ...body } = request
  try {
    const { result: shown } = await idempotent(db, clock, { userId, key: idempotencyKey, scope: 'propUse', body }, async trx => {
      const nowMs = clock()
      const now = iso(nowMs)
      const { kind, caseId, slot } = request
      // the case row is locked as a purchase locks it, so an X-ray and a purchase of the slot take turns
      const c = await forUpdate(deps.dialect, trx.selectFrom('cases').select(['cases.series_id', 'cases.status', 'cases.size']).where('cases.id', '=', caseId)).executeTakeFirst()
      const onSale = c && await trx.selectFrom('series').select('id').where('id', '=', Number(c.series_id)).where('status', '=', 'on_sale').executeTakeFirst()
      if (!c || !onSale) throw fail.notFound('case.notFound')
      if (c.status !== 'on_sale') throw fail.conflict('case.notOnSale')
      // a kuji set's tickets are drawn in turns from a set everyone shares: no card shows or holds one
      // (asked through the transaction: on SQLite a read outside it would wait for this transaction's connection)
      if (await kujiSeriesOfCase(trx, caseId) !== null) throw new ApiFailure(409, 'kuji.noProps', {}, { reason: 'kuji_no_props' })
      if (slot > Number(c.size)) throw new ApiFailure(400, 'slot.outOfRange', { field: 'slot', slot, size: c.size }, { field: 'slot', slot })
      const s = await trx.selectFrom('case_slots').select(['design_id', 'sold_to']).where('case_id', '=', caseId).where('slot', '=', slot).executeTakeFirstOrThrow()
      if (s.sold_to !== null) throw new ApiFailure(409, 'slot.sold', { slot }, { field: 'slot', slot })
      const hold = await trx.selectFrom('slot_reservations').select(['user_id', 'expires_at']).where('case_id', '=', caseId).where('slot', '=', slot).executeTakeFirst()
      const heldByOther = hold && Number(hold.user_id) !== userId && hold.expires_at > now
      if (kind === 'xray' && heldByOther) throw new ApiFailure(409, 'slot.reserved', { slot }, { field: 'slot', slot })

      if (kind === 'shake') {
        const counted = await trx.insertInto('daily_counters').values({ user_id: userId, name: SHAKE_COUNTER, day: shopDay(nowMs), count: 1 })
          .onConflict(oc => oc.columns(['user_id', 'name', 'day']).doUpdateSet({ count: sql<number>`daily_counters.count + 1` })
            .where('daily_counters.count', '<', PROP_LIMITS.shakesPerDay))
          .returning('count').executeTakeFirst()
        if (!counted) {
          const seconds = Math.ceil(msUntilNextDay(nowMs) / 1000)
          throw new ApiFailure(429, 'props.noShakes', { max: PROP_LIMITS.shakesPerDay }, { retryAfter: seconds })
        }
      } else {
        if (kind === 'hint') {
          const used = await trx.selectFrom('prop_uses').select('id').where('user_id', '=', userId).where('case_id', '=', caseId).where('slot', '=', slot).where('kind', '=', 'hint').executeTakeFirst()
          if (used) throw new ApiFailure(409, 'props.hintUsed', { slot }, { field: 'slot', slot })
        }
        const taken = await trx.updateTable('prop_inventory').set({ count: sql<number>`count - 1`, updated_at: now })
          .where('user_id', '=', userId).where('kind', '=', kind).where('count', '>', 0).returning('count').executeTakeFirst()
        if (!taken) throw fail.unprocessable('props.noCard', { card: `@propCard.${kind}` }, { field: 'kind', kind })
      }

      let designId = Number(s.design_id)
      let reservedUntil: string | null = null
      if (kind === 'xray') {
        reservedUntil = iso(nowMs + RESERVATION_MS)
        await trx.deleteFrom('slot_reservations').where('case_id', '=', caseId).where('slot', '=', slot).execute()
        await trx.insertInto('slot_reservations').values({ case_id: caseId, slot, user_id: userId, expires_at: reservedUntil }).execute()
      } else {
        // a design the slot is not: preferably one not shown to this user for this slot yet
        const designs = await trx.selectFrom('designs').select('id').where('series_id', '=', Number(c.series_id)).orderBy('id').execute()
        const shownBefore = new Set((await trx.selectFrom('prop_uses').select('design_id').where('user_id', '=', userId)
          .where('case_id', '=', caseId).where('slot', '=', slot).where('kind', 'in', ['shake', 'hint']).execute()).map(r => Number(r.design_id)))
        const others = designs.map(d => Number(d.id)).filter(id => id !== designId)
        const fresh = others.filter(id => !shownBefore.has(id))
        const from = fresh.length ? fresh : others
        designId = from[randomInt(from.length)]
      }
      await trx.insertInto('prop_uses').values({ user_id: userId, kind, case_id: caseId, slot, design_id: designId, created_at: now }).execute()
      const [shown] = await shownOf(trx, [{ kind, case_id: caseId, slot, design_id: designId, created_at: now }], new Map(reservedUntil ? [[`${caseId}:${slot}`, reservedUntil]] : []))
      return shown
    })
    return { shown, state: await propsState(db, clock, userId) }
  } catch (err) {
    // two hint cards on one slot at once: the partial unique index refuses the second
    if (isUniqueViolation(err)) throw new ApiFailure(409, 'props.hintUsed', { slot: request.slot }, { field: 'slot', slot: request.slot })
    throw err
  }
}
