/**
 * What the two purchase paths share (purchase.ts in steps, purchaseOnPostgres.ts in one statement):
 * their dependencies, the check of the slot list and the refusals, so each path words a refusal alike.
 */
import type { Kysely } from 'kysely'
import type { InsufficientBalanceData, PriceChangedData, PurchaseCheckRequest, SlotFailureData } from '../../../../types/shop'
import type { Database } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import type { Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { yuan } from '../../core/money'

export interface PurchaseDeps { db: Kysely<Database>; dialect: Dialect; clock: Clock }

export function checkSlotList (request: PurchaseCheckRequest): void {
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

/** The refusals of a purchase (also made from the answer of the PostgreSQL purchase, purchaseOnPostgres.ts). */
export const purchaseRefusal = {
  caseNotFound: () => fail.notFound('case.notFound'),
  caseNotOnSale: () => fail.conflict('case.notOnSale'),
  slotOutOfRange: (slot: number, size: number) => new ApiFailure(400, 'slot.outOfRange', { field: 'slots', slot, size }, { field: 'slots', slot }),
  slotSold: (slot: number) => new ApiFailure(409, 'slot.sold', { slot }, { field: 'slots', slot } satisfies SlotFailureData),
  slotReserved: (slot: number) => new ApiFailure(409, 'slot.reserved', { slot }, { field: 'slots', slot } satisfies SlotFailureData),
  priceChanged: (priceCents: number) => new ApiFailure(409, 'purchase.priceChanged', { price: yuan(priceCents) }, { field: 'priceCents', priceCents } satisfies PriceChangedData),
  insufficient: (shortfallCents: number, totalCents: number) => fail.unprocessable('wallet.insufficient', { shortfall: yuan(shortfallCents) },
    { reason: 'insufficient_balance', shortfallCents, totalCents } satisfies InsufficientBalanceData)
}
