/**
 * The money and prize invariants, checked in the database after a workload (property, crash and
 * scale-out tests): every ledger transaction sums to zero, every balance equals its ledger lines and is
 * not negative, a paid order is credited exactly once (an unpaid one never), each slot is sold once and
 * has exactly one prize, each purchase has exactly the prizes of its slots, each idempotency key maps to
 * exactly one applied purchase (and one ledger transaction), each purchase costs the series' price per
 * slot and is debited exactly that from the buyer, each case's sold count is its sold slots, and each
 * sold slot was sold by exactly one purchase (of its buyer); withdrawals: each held once, decided at
 * most once, its refunds adding up to it, no order refunded above what it was paid, the pending account
 * holding exactly the undecided withdrawals; the warehouse: each design's committed count equals what its
 * slots and prizes hold, within its stock.
 */
import type { Db } from '../../../server/src/db'
import { checkLedger } from '../../../server/src/domain/money/ledger'
import { committedCounts } from '../../../server/src/domain/catalogue/stock'

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

  // a kuji set's Last One (the slot after its tickets) goes with the purchase of its final ticket, as
  // one more prize of that purchase (types/kuji.ts)
  const kujiSets = new Map((await db.selectFrom('cases').innerJoin('series', 'series.id', 'cases.series_id').select(['cases.id', 'cases.size'])
    .where('series.kind', '=', 'kuji').execute()).map(c => [Number(c.id), Number(c.size)]))
  const lastOnes = await db.selectFrom('prizes').select(['purchase_id', 'case_id', 'slot', 'user_id']).where('case_id', 'in', [0, ...kujiSets.keys()]).execute()
  const lastOneOf = new Map(lastOnes.filter(p => p.slot === kujiSets.get(Number(p.case_id))! + 1).map(p => [Number(p.purchase_id), p]))
  const purchases = await db.selectFrom('purchases').select(['id', 'slots']).execute()
  const perPurchase = await db.selectFrom('prizes').select(['purchase_id', eb => eb.fn.countAll<number>().as('n')])
    .where('purchase_id', 'is not', null).groupBy('purchase_id').execute()
  const prizeCount = new Map(perPurchase.map(p => [Number(p.purchase_id), Number(p.n)]))
  for (const p of purchases) {
    const slots = (JSON.parse(p.slots) as number[]).length + (lastOneOf.has(Number(p.id)) ? 1 : 0)
    if ((prizeCount.get(Number(p.id)) ?? 0) !== slots) problems.push(`purchase ${p.id} of ${slots} slots has ${prizeCount.get(Number(p.id)) ?? 0} prizes`)
  }

  // each purchase: its price, its split, and its own ledger transaction debiting the buyer exactly that
  const bought = await db.selectFrom('purchases').innerJoin('series', 'series.id', 'purchases.series_id')
    .select(['purchases.id', 'purchases.user_id', 'purchases.case_id', 'purchases.slots', 'purchases.total_cents', 'purchases.credit_cents',
      'purchases.cash_cents', 'purchases.tx_id', 'series.price_cents']).execute()
  const purchaseTx = await db.selectFrom('ledger_transactions').select(['id', 'user_id', 'idempotency_key']).where('kind', '=', 'purchase').execute()
  const txById = new Map(purchaseTx.map(x => [Number(x.id), x]))
  const lines = await db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
    .select(['ledger_lines.tx_id', 'ledger_lines.account', 'ledger_lines.user_id', 'ledger_lines.amount_cents']).where('ledger_transactions.kind', '=', 'purchase').execute()
  const byTx = new Map<number, typeof lines>()
  for (const l of lines) byTx.set(Number(l.tx_id), [...(byTx.get(Number(l.tx_id)) ?? []), l])
  const usedTx = new Set<number>()
  const slotSales = new Map<string, number[]>()
  for (const p of bought) {
    const slots = JSON.parse(p.slots) as number[]
    const total = Number(p.total_cents)
    const where = `purchase ${p.id}`
    if (total !== Number(p.price_cents) * slots.length) problems.push(`${where}: ${total} for ${slots.length} slots at ${p.price_cents}`)
    if (Number(p.credit_cents) + Number(p.cash_cents) !== total || Number(p.credit_cents) < 0 || Number(p.cash_cents) < 0) problems.push(`${where}: split ${p.credit_cents} + ${p.cash_cents} of ${total}`)
    const tx = txById.get(Number(p.tx_id))
    if (!tx || Number(tx.user_id) !== Number(p.user_id)) problems.push(`${where}: no purchase transaction of its buyer (${p.tx_id})`)
    if (usedTx.has(Number(p.tx_id))) problems.push(`${where}: shares transaction ${p.tx_id}`)
    usedTx.add(Number(p.tx_id))
    const txLines = byTx.get(Number(p.tx_id)) ?? []
    const fromBuyer = txLines.filter(l => Number(l.user_id) === Number(p.user_id) && (l.account === 'user_cash' || l.account === 'user_credit')).reduce((a, l) => a + Number(l.amount_cents), 0)
    const toHouse = txLines.filter(l => l.account === 'house_sales').reduce((a, l) => a + Number(l.amount_cents), 0)
    if (fromBuyer !== -total || toHouse !== total) problems.push(`${where}: ledger takes ${-fromBuyer} from the buyer and gives ${toHouse} to sales, not ${total}`)
    const lastOne = lastOneOf.get(Number(p.id))
    if (lastOne && (Number(lastOne.case_id) !== Number(p.case_id) || !slots.includes(kujiSets.get(Number(p.case_id))!))) problems.push(`${where}: the Last One without the set's final ticket`)
    for (const slot of lastOne ? [...slots, Number(lastOne.slot)] : slots) {
      const k = `${p.case_id}:${slot}`
      slotSales.set(k, [...(slotSales.get(k) ?? []), Number(p.user_id)])
    }
  }
  // a kuji set's Double Chance slots (after the Last One) go to the buyers of the winning tickets, no purchase of their own
  const drawn = await db.selectFrom('cases').select(['id', 'size', 'dc_winning']).where('dc_winning', 'is not', null).execute()
  for (const c of drawn) {
    for (const [i, ticket] of (JSON.parse(c.dc_winning!) as number[]).entries()) {
      const buyer = slotSales.get(`${c.id}:${ticket}`) ?? []
      slotSales.set(`${c.id}:${Number(c.size) + 2 + i}`, buyer)
    }
  }
  if (purchaseTx.length !== bought.length) problems.push(`${purchaseTx.length} purchase transactions for ${bought.length} purchases`)
  const txKeys = new Map<string, number>()
  for (const x of purchaseTx) if (x.idempotency_key !== null) txKeys.set(x.idempotency_key, (txKeys.get(x.idempotency_key) ?? 0) + 1)
  for (const [k, n] of txKeys) if (n > 1) problems.push(`idempotency key ${k} applied ${n} times`)

  // stored keys: one per applied purchase, none left "in progress"
  const keys = await db.selectFrom('idempotency_keys').select(['user_id', 'key', 'scope', 'response']).execute()
  const purchaseKeys = keys.filter(k => k.scope === 'casePurchase')
  if (purchaseKeys.length !== bought.length) problems.push(`${purchaseKeys.length} stored purchase keys for ${bought.length} purchases`)
  for (const k of keys) if (k.response === null) problems.push(`key ${k.key} of user ${k.user_id} left in progress`)
  for (const k of purchaseKeys) if (!txKeys.has(`purchase:${k.user_id}:${k.key}`)) problems.push(`stored key ${k.key} of user ${k.user_id} has no purchase transaction`)

  // slots: each sold one sold once, to its buyer, and counted in its case
  const soldSlots = await db.selectFrom('case_slots').select(['case_id', 'slot', 'sold_to']).where('sold_to', 'is not', null).execute()
  for (const s of soldSlots) {
    const buyers = slotSales.get(`${s.case_id}:${s.slot}`) ?? []
    if (buyers.length !== 1 || buyers[0] !== Number(s.sold_to)) problems.push(`case ${s.case_id} slot ${s.slot} sold to ${s.sold_to} by purchases of ${JSON.stringify(buyers)}`)
  }
  if (soldSlots.length !== slotSales.size) problems.push(`${slotSales.size} slots in purchases, ${soldSlots.length} marked sold`)
  const cases = await db.selectFrom('cases').select(['id', 'size', 'sold_count', 'status']).execute()
  const soldPerCase = new Map<number, number>()
  const lastOneSold = new Set<number>()
  for (const s of soldSlots) {
    if (s.slot === (kujiSets.get(Number(s.case_id)) ?? -1) + 1) lastOneSold.add(Number(s.case_id))
    else if (s.slot > (kujiSets.get(Number(s.case_id)) ?? Infinity)) continue
    else soldPerCase.set(Number(s.case_id), (soldPerCase.get(Number(s.case_id)) ?? 0) + 1)
  }
  for (const c of cases) {
    const n = soldPerCase.get(Number(c.id)) ?? 0
    if (kujiSets.has(Number(c.id)) && lastOneSold.has(Number(c.id)) !== (c.status === 'sold_out')) problems.push(`kuji set ${c.id}: ${c.status}, its Last One ${lastOneSold.has(Number(c.id)) ? 'given' : 'not given'}`)
    if (Number(c.sold_count) !== n) problems.push(`case ${c.id}: sold_count ${c.sold_count}, ${n} slots sold`)
    if ((n === Number(c.size)) !== (c.status === 'sold_out')) problems.push(`case ${c.id}: ${n} of ${c.size} sold but ${c.status}`)
  }
  problems.push(...await withdrawalViolations(db))
  problems.push(...await stockViolations(db))
  return problems
}

/**
 * The warehouse books (issue 50): each design's committed count is what its rows say is spoken for
 * (unsold slots of cases on sale, prizes of live accounts not yet out), and 0 <= committed <= stock.
 */
export async function stockViolations (db: Db): Promise<string[]> {
  const problems: string[] = []
  const counted = await committedCounts(db)
  const designs = await db.selectFrom('designs').select(['id', 'stock', 'committed']).execute()
  for (const d of designs) {
    const id = Number(d.id)
    const stock = Number(d.stock)
    const committed = Number(d.committed)
    if (committed !== (counted.get(id) ?? 0)) problems.push(`design ${id}: committed ${committed}, but its slots and prizes hold ${counted.get(id) ?? 0}`)
    if (committed < 0 || committed > stock) problems.push(`design ${id}: committed ${committed} outside 0..${stock}`)
  }
  return problems
}

/** The withdrawal books (issue 8). */
export async function withdrawalViolations (db: Db): Promise<string[]> {
  const problems: string[] = []
  const withdrawals = await db.selectFrom('withdrawals').selectAll().execute()
  const refunds = await db.selectFrom('withdrawal_refunds').selectAll().execute()
  const txs = await db.selectFrom('ledger_transactions').select(['id', 'kind', 'reference', 'idempotency_key'])
    .where('kind', 'in', ['withdraw', 'withdraw_payout', 'withdraw_release']).execute()
  const txLines = await db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
    .select(['ledger_lines.tx_id', 'ledger_lines.account', 'ledger_lines.user_id', 'ledger_lines.amount_cents'])
    .where('ledger_transactions.kind', 'in', ['withdraw', 'withdraw_payout', 'withdraw_release']).execute()
  const linesOf = (txId: number | null) => txLines.filter(l => Number(l.tx_id) === Number(txId)).map(l => `${l.account}:${Number(l.amount_cents)}`).sort()
  const byWithdrawal = new Map<number, typeof refunds>()
  for (const r of refunds) byWithdrawal.set(Number(r.withdrawal_id), [...(byWithdrawal.get(Number(r.withdrawal_id)) ?? []), r])
  let pendingExpected = 0
  for (const w of withdrawals) {
    const id = Number(w.id)
    const amount = Number(w.amount_cents)
    const where = `withdrawal ${id} (${w.status})`
    const rs = byWithdrawal.get(id) ?? []
    if (rs.reduce((a, r) => a + Number(r.amount_cents), 0) !== amount) problems.push(`${where}: refunds add up to ${rs.reduce((a, r) => a + Number(r.amount_cents), 0)}, not ${amount}`)
    const hold = txs.filter(x => x.kind === 'withdraw' && x.reference === `withdrawal ${id}`)
    if (hold.length !== 1 || Number(hold[0].id) !== Number(w.hold_tx_id)) problems.push(`${where}: ${hold.length} hold transactions`)
    else if (JSON.stringify(linesOf(w.hold_tx_id)) !== JSON.stringify([`user_cash:${-amount}`, `withdraw_pending:${amount}`].sort())) problems.push(`${where}: hold lines ${linesOf(w.hold_tx_id)}`)
    const payouts = txs.filter(x => x.kind === 'withdraw_payout' && x.idempotency_key === `withdraw-payout:${id}`)
    const releases = txs.filter(x => x.kind === 'withdraw_release' && x.idempotency_key === `withdraw-release:${id}`)
    const returned = rs.filter(r => r.status === 'failed').reduce((a, r) => a + Number(r.amount_cents), 0)
    switch (w.status) {
      case 'requested':
        pendingExpected += amount
        if (payouts.length || releases.length || w.decision_tx_id !== null) problems.push(`${where}: decided in the ledger`)
        if (rs.some(r => r.status !== 'pending')) problems.push(`${where}: a refund moved before approval`)
        break
      case 'rejected':
        if (payouts.length || releases.length !== 1 || Number(w.returned_cents) !== amount || !w.reason) problems.push(`${where}: ${payouts.length} payouts, ${releases.length} releases, returned ${w.returned_cents}, reason ${w.reason}`)
        if (rs.some(r => r.status !== 'canceled')) problems.push(`${where}: a refund not canceled`)
        break
      default:
        if (payouts.length !== 1 || releases.length) problems.push(`${where}: ${payouts.length} payouts, ${releases.length} releases`)
        if (rs.some(r => r.status === 'canceled')) problems.push(`${where}: a canceled refund`)
        if (Number(w.returned_cents) !== returned) problems.push(`${where}: returned ${w.returned_cents}, failed refunds ${returned}`)
        if (w.status === 'paid' && rs.some(r => r.status !== 'success')) problems.push(`${where}: paid with refunds not succeeded`)
        if (w.status === 'failed' && (returned === 0 || rs.some(r => r.status === 'pending' || r.status === 'processing'))) problems.push(`${where}: failed without a failed refund, or with refunds under way`)
        if (w.status === 'approved' && !rs.some(r => r.status === 'pending' || r.status === 'processing')) problems.push(`${where}: approved with nothing under way`)
    }
  }
  for (const r of refunds) {
    const failedTx = txs.filter(x => x.idempotency_key === `withdraw-refund-failed:${r.out_refund_no}`)
    if ((r.status === 'failed') !== (failedTx.length === 1) || failedTx.length > 1) problems.push(`refund ${r.out_refund_no} (${r.status}): ${failedTx.length} returns to cash`)
  }
  const pending = await db.selectFrom('ledger_lines').select(eb => eb.fn.sum<number>('amount_cents').as('s')).where('account', '=', 'withdraw_pending').executeTakeFirst()
  if (Number(pending?.s ?? 0) !== pendingExpected) problems.push(`withdraw_pending holds ${pending?.s}, the requested withdrawals ${pendingExpected}`)
  // orders: refunded_cents is what live refunds take, never above the order's amount
  const orders = await db.selectFrom('orders').select(['op_id', 'amount_cents', 'refunded_cents', 'status']).execute()
  const held = new Map<string, number>()
  for (const r of refunds) if (['pending', 'processing', 'success'].includes(r.status)) held.set(r.op_id, (held.get(r.op_id) ?? 0) + Number(r.amount_cents))
  for (const o of orders) {
    const h = held.get(o.op_id) ?? 0
    if (Number(o.refunded_cents) !== h) problems.push(`order ${o.op_id}: refunded_cents ${o.refunded_cents}, live refunds ${h}`)
    if (h > Number(o.amount_cents ?? 0) || (h > 0 && o.status !== 'paid')) problems.push(`order ${o.op_id} (${o.status}) of ${o.amount_cents} refunds ${h}`)
  }
  const keys = await db.selectFrom('idempotency_keys').select(['user_id', 'key']).where('scope', '=', 'withdrawRequest').execute()
  const holdKeys = new Set(txs.filter(x => x.kind === 'withdraw').map(x => x.idempotency_key))
  if (keys.length !== withdrawals.length) problems.push(`${keys.length} stored withdrawal keys for ${withdrawals.length} withdrawals`)
  for (const k of keys) if (!holdKeys.has(`withdraw:${k.user_id}:${k.key}`)) problems.push(`stored withdrawal key ${k.key} has no hold`)
  return problems
}
