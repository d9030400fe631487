/**
 * The double-entry ledger. Every money movement is one transaction whose lines sum to zero; a user's
 * balances are the sums of their user_cash / user_credit lines (stored with the user's sign: + in,
 * - out), the house accounts carry the other side:
 *   top-up     payment_clearing -x   user_cash +x
 *   purchase   user_credit -c  user_cash -y   house_sales +(c + y)
 *   recycle    house_credit -v       user_credit +v
 * A transaction may carry an idempotency key (unique): the same movement can never be written twice.
 * Once the database transaction that wrote them has committed, the lines are told to the database
 * handle's listeners (db/events.ts: the money moved per account, server/src/metrics/metrics.ts).
 */
import type { Kysely } from 'kysely'
import type { Database, LedgerAccount, LedgerKind } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { perCount, prepared } from '../../db/prepared'
import { afterCommit, eventsOf } from '../../db/events'

type Db = Kysely<Database>

export interface LedgerLineInput { account: LedgerAccount; userId?: number | null; amountCents: number }

export interface LedgerTransactionInput {
  kind: LedgerKind
  reference: string
  idempotencyKey: string | null
  userId: number | null
  lines: LedgerLineInput[]
}

export class UnbalancedTransactionError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'UnbalancedTransactionError'
  }
}

/** Writes a balanced transaction (run inside the transaction that moves the balances); answers its id. */
const insertTransaction = prepared((db: Db, kind: LedgerTransactionInput['kind'], reference: string, idempotencyKey: string | null, userId: number | null, createdAt: string) => db
  .insertInto('ledger_transactions')
  .values({ kind, reference, idempotency_key: idempotencyKey, user_id: userId, created_at: createdAt })
  .returning('id'))

/** The insert of a transaction's lines (four values a line), one prepared statement per number of lines. */
const insertLines = perCount(count => prepared((db: Db, ...values: unknown[]) => db.insertInto('ledger_lines').values(Array.from({ length: count }, (_, i) => ({
  tx_id: values[i * 4] as number, account: values[i * 4 + 1] as LedgerLineInput['account'], user_id: values[i * 4 + 2] as number | null, amount_cents: values[i * 4 + 3] as number
})))))

export async function postTransaction (trx: Db, clock: Clock, input: LedgerTransactionInput): Promise<number> {
  const lines = input.lines.filter(l => l.amountCents !== 0)
  const sum = lines.reduce((s, l) => s + l.amountCents, 0)
  if (lines.length < 2 || sum !== 0 || lines.some(l => !Number.isSafeInteger(l.amountCents))) {
    throw new UnbalancedTransactionError(`ledger transaction ${input.kind} ${input.reference} does not balance (${sum})`)
  }
  const row = await insertTransaction.first(trx, input.kind, input.reference.slice(0, 200), input.idempotencyKey ?? null, input.userId ?? null, iso(clock()))
  const txId = Number(row!.id)
  await insertLines(lines.length).execute(trx, ...lines.flatMap(l => [txId, l.account, l.userId ?? null, l.amountCents]))
  const events = eventsOf(trx)
  if (events?.heard('ledgerLines')) {
    const moved = lines.map(l => ({ account: l.account, amountCents: l.amountCents }))
    afterCommit(trx, () => events.emit('ledgerLines', moved))
  }
  return txId
}

export interface LedgerCheck {
  transactions: number
  /** Transactions whose lines do not sum to zero. */
  unbalanced: Array<{ txId: number; sumCents: number }>
  /** Wallets whose balances differ from the sums of the user's ledger lines. */
  walletMismatches: Array<{ userId: number; cashCents: number; ledgerCashCents: number; creditCents: number; ledgerCreditCents: number }>
  /** Sum of every line of every account (zero when the books balance). */
  totalCents: number
}

/** Audits the books: every transaction balances and every wallet equals its ledger lines. */
export async function checkLedger (db: Db): Promise<LedgerCheck> {
  const sums = await db.selectFrom('ledger_lines')
    .select(['tx_id', eb => eb.fn.sum<number>('amount_cents').as('s')])
    .groupBy('tx_id').execute()
  const { n } = await db.selectFrom('ledger_transactions').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const unbalanced = sums.filter(r => Number(r.s) !== 0).map(r => ({ txId: Number(r.tx_id), sumCents: Number(r.s) }))
  const txWithoutLines = Number(n) - sums.length
  if (txWithoutLines > 0) unbalanced.push({ txId: -1, sumCents: 0 })
  const perUser = await db.selectFrom('ledger_lines')
    .select(['user_id', 'account', eb => eb.fn.sum<number>('amount_cents').as('s')])
    .where('user_id', 'is not', null)
    .groupBy(['user_id', 'account']).execute()
  const ledger = new Map<number, { cash: number; credit: number }>()
  for (const r of perUser) {
    const u = ledger.get(Number(r.user_id)) ?? { cash: 0, credit: 0 }
    if (r.account === 'user_cash') u.cash += Number(r.s)
    else u.credit += Number(r.s)
    ledger.set(Number(r.user_id), u)
  }
  const wallets = await db.selectFrom('wallets').select(['user_id', 'cash_cents', 'credit_cents']).execute()
  const walletMismatches: LedgerCheck['walletMismatches'] = []
  const seen = new Set<number>()
  for (const w of wallets) {
    const userId = Number(w.user_id)
    seen.add(userId)
    const l = ledger.get(userId) ?? { cash: 0, credit: 0 }
    if (Number(w.cash_cents) !== l.cash || Number(w.credit_cents) !== l.credit) {
      walletMismatches.push({ userId, cashCents: Number(w.cash_cents), ledgerCashCents: l.cash, creditCents: Number(w.credit_cents), ledgerCreditCents: l.credit })
    }
  }
  for (const [userId, l] of ledger) {
    if (!seen.has(userId) && (l.cash !== 0 || l.credit !== 0)) {
      walletMismatches.push({ userId, cashCents: 0, ledgerCashCents: l.cash, creditCents: 0, ledgerCreditCents: l.credit })
    }
  }
  const totalCents = sums.reduce((s, r) => s + Number(r.s), 0)
  return { transactions: Number(n), unbalanced, walletMismatches, totalCents }
}
