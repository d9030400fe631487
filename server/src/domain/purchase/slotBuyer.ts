/**
 * "Slot sold", told apart when the buyer is the one asking. A shopper whose first answer was lost (a
 * reload, a dropped connection) and who tries again with a new key meets their own purchase: the slot
 * is sold, to them. Saying only "sold" reads as "someone else got it, nothing happened", so the refusal
 * names the fact and the purchase and prize it made (the app links to that opening).
 * Read after the refusal, outside its transaction: the purchase that sold the slot has committed (its
 * UPDATE ... AND sold_to IS NULL saw it), so its prize row is there to be read.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import type { SlotFailureData } from '../../../../types/shop'
import { ApiFailure } from '../../core/errors'

type Db = Kysely<Database>

/** Who bought a slot of a case, and the prize it made (undefined: not sold). */
export async function slotPurchase (db: Db, caseId: number, slot: number): Promise<{ buyerId: number; purchaseId: number; prizeId: number } | undefined> {
  const row = await db.selectFrom('case_slots')
    .innerJoin('prizes', join => join.onRef('prizes.case_id', '=', 'case_slots.case_id').onRef('prizes.slot', '=', 'case_slots.slot'))
    .select(['case_slots.sold_to', 'prizes.id as prize_id', 'prizes.purchase_id'])
    .where('case_slots.case_id', '=', caseId).where('case_slots.slot', '=', slot).where('case_slots.sold_to', 'is not', null)
    .orderBy('prizes.id', 'desc').limit(1)
    .executeTakeFirst()
  if (!row || row.sold_to === null || row.purchase_id === null) return undefined
  return { buyerId: Number(row.sold_to), purchaseId: Number(row.purchase_id), prizeId: Number(row.prize_id) }
}

/**
 * Runs a purchase (or its check); a "slot sold" refusal whose slot the caller bought becomes
 * `slot.soldToYou`, with the purchase and prize in its data. Any other outcome passes unchanged.
 */
export async function tellOwnSlot<T> (db: Db, userId: number, caseId: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (!(err instanceof ApiFailure) || err.key !== 'slot.sold') throw err
    const slot = (err.data as SlotFailureData | null)?.slot
    if (typeof slot !== 'number') throw err
    const bought = await slotPurchase(db, caseId, slot)
    if (!bought || bought.buyerId !== userId) throw err
    throw new ApiFailure(409, 'slot.soldToYou', { slot },
      { field: 'slots', slot, boughtByYou: { purchaseId: bought.purchaseId, prizeId: bought.prizeId } } satisfies SlotFailureData)
  }
}
