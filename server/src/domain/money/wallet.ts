/**
 * Wallets: cash (top-ups; withdrawable) and credit (recycling, rewards; never withdrawable), integer
 * cents, never negative (database checks). Every change goes with a ledger transaction (ledger.ts) in
 * the same database transaction. Money-moving statements are safe under real concurrency: the balance
 * row is locked (SELECT ... FOR UPDATE on PostgreSQL) and decreased only by a conditional UPDATE.
 */
import { sql, type Kysely } from 'kysely'
import type { LedgerEntry, LedgerResponse, WalletBalance } from '../../../../types/shop'
import type { Database } from '../../db/schema'
import { dialectOf, forUpdate } from '../../db/lock'
import { prepared } from '../../db/prepared'
import { iso, type Clock } from '../../core/clock'

type Db = Kysely<Database>

const walletRow = prepared((db: Db, userId: number) => db.selectFrom('wallets').select(['cash_cents', 'credit_cents']).where('user_id', '=', userId))
const lockedWalletRow = prepared((db: Db, userId: number) => forUpdate(dialectOf(db), db.selectFrom('wallets').select(['cash_cents', 'credit_cents']).where('user_id', '=', userId)))

export async function balanceOf (db: Db, userId: number): Promise<WalletBalance> {
  const w = await walletRow.first(db, userId)
  return { cashCents: Number(w?.cash_cents ?? 0), creditCents: Number(w?.credit_cents ?? 0) }
}

/** The balance, with the row locked until the transaction ends (no row: zero, nothing to lock). */
export async function lockBalance (trx: Db, userId: number): Promise<WalletBalance> {
  const w = await lockedWalletRow.first(trx, userId)
  return { cashCents: Number(w?.cash_cents ?? 0), creditCents: Number(w?.credit_cents ?? 0) }
}

/** Adds to a balance (creating the wallet); answers the new balance. */
export async function addToWallet (trx: Db, clock: Clock, userId: number, add: { cashCents?: number; creditCents?: number }): Promise<WalletBalance> {
  const cash = add.cashCents ?? 0
  const credit = add.creditCents ?? 0
  if (cash < 0 || credit < 0) throw new Error('addToWallet only adds')
  const now = iso(clock())
  const row = await trx.insertInto('wallets')
    .values({ user_id: userId, cash_cents: cash, credit_cents: credit, updated_at: now })
    .onConflict(oc => oc.column('user_id').doUpdateSet({
      cash_cents: sql<number>`wallets.cash_cents + ${cash}`,
      credit_cents: sql<number>`wallets.credit_cents + ${credit}`,
      updated_at: now
    }))
    .returning(['cash_cents', 'credit_cents'])
    .executeTakeFirstOrThrow()
  return { cashCents: Number(row.cash_cents), creditCents: Number(row.credit_cents) }
}

/**
 * Takes from the balances only if they cover it (one conditional UPDATE); answers the new balance, or
 * null when they do not (nothing changed).
 */
export async function takeFromWallet (trx: Db, clock: Clock, userId: number, take: { cashCents: number; creditCents: number }): Promise<WalletBalance | null> {
  const { cashCents, creditCents } = take
  const row = await takeRow.first(trx, cashCents, creditCents, iso(clock()), userId, cashCents, creditCents)
  return row ? { cashCents: Number(row.cash_cents), creditCents: Number(row.credit_cents) } : null
}

/** Takes from both balances only where they hold enough (each amount is a parameter twice: the SET and the check). */
const takeRow = prepared((db: Db, cashCents: number, creditCents: number, now: string, userId: number, cashAtLeast: number, creditAtLeast: number) => db.updateTable('wallets')
  .set({
    cash_cents: sql<number>`cash_cents - ${cashCents}`,
    credit_cents: sql<number>`credit_cents - ${creditCents}`,
    updated_at: now
  })
  .where('user_id', '=', userId)
  .where('cash_cents', '>=', cashAtLeast)
  .where('credit_cents', '>=', creditAtLeast)
  .returning(['cash_cents', 'credit_cents']))

/** The user's own ledger lines, newest first, signed as the user sees them. */
export async function ledgerPage (db: Db, userId: number, page: number, size: number): Promise<LedgerResponse> {
  const { total } = await db.selectFrom('ledger_lines').where('user_id', '=', userId)
    .select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await db.selectFrom('ledger_lines')
    .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
    .select(['ledger_lines.id', 'ledger_lines.tx_id', 'ledger_lines.account', 'ledger_lines.amount_cents',
      'ledger_transactions.kind', 'ledger_transactions.reference', 'ledger_transactions.created_at'])
    .where('ledger_lines.user_id', '=', userId)
    .orderBy('ledger_lines.id', 'desc')
    .limit(size).offset((page - 1) * size)
    .execute()
  const list: LedgerEntry[] = rows.map(r => ({
    id: Number(r.id),
    txId: Number(r.tx_id),
    kind: r.kind,
    account: r.account === 'user_credit' ? 'credit' : 'cash',
    amountCents: Number(r.amount_cents),
    createdAt: r.created_at,
    reference: r.reference
  }))
  return { list, total: Number(total) }
}
