import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

export const WITHDRAWAL_STATUSES = ['requested', 'approved', 'paid', 'rejected', 'failed'] as const
/**
 * A refund of one top-up order: pending (held, not yet sent), processing (WeChat Pay accepted it),
 * success, failed (the money went back to the shopper's cash), canceled (the withdrawal was rejected).
 */
export const REFUND_STATUSES = ['pending', 'processing', 'success', 'failed', 'canceled'] as const

const list = (values: readonly string[]) => sql.join(values.map(v => sql.lit(v)))

/**
 * Withdrawals (issue 8): the shopper's request (its amount held out of cash), the operator's decision,
 * and its split over the paid top-up orders it goes back through (one refund each). orders.refunded_cents
 * is what withdrawals hold or took from an order: never more than the order was paid (a CHECK).
 */
export function withdrawals (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      const refundedCheck = 'refunded_cents >= 0 and refunded_cents <= coalesce(amount_cents, 0)'
      if (dialect === 'postgres') {
        await db.schema.alterTable('orders').addColumn('refunded_cents', 'bigint', c => c.notNull().defaultTo(0)).execute()
        await sql.raw(`alter table orders add constraint orders_refunded_check check (${refundedCheck})`).execute(db)
      } else {
        // SQLite adds no table constraint, but a new column may carry a CHECK over the row
        await sql.raw(`alter table orders add column refunded_cents bigint not null default 0 constraint orders_refunded_check check (${refundedCheck})`).execute(db)
      }

      await db.schema.createTable('withdrawals')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('amount_cents', 'bigint', c => c.notNull())
        .addColumn('status', 'varchar(16)', c => c.notNull().defaultTo('requested'))
        // the operator's reason of a rejection
        .addColumn('reason', 'varchar(200)')
        // cash given back (rejected, or refunds that failed)
        .addColumn('returned_cents', 'bigint', c => c.notNull().defaultTo(0))
        .addColumn('hold_tx_id', 'bigint', c => c.references('ledger_transactions.id'))
        .addColumn('decision_tx_id', 'bigint', c => c.references('ledger_transactions.id'))
        .addColumn('decided_by', 'bigint', c => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('decided_at', t.timestamp)
        .addColumn('finished_at', t.timestamp)
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('withdrawals_status_check', sql`status in (${list(WITHDRAWAL_STATUSES)})`)
        .addCheckConstraint('withdrawals_amount_check', sql`amount_cents > 0 and returned_cents >= 0 and returned_cents <= amount_cents`)
        .execute()
      await db.schema.createIndex('withdrawals_user_id_idx').on('withdrawals').columns(['user_id', 'id']).execute()
      await db.schema.createIndex('withdrawals_user_created_idx').on('withdrawals').columns(['user_id', 'created_at']).execute()
      await db.schema.createIndex('withdrawals_status_idx').on('withdrawals').columns(['status', 'id']).execute()

      await db.schema.createTable('withdrawal_refunds')
        .$call(t.id)
        .addColumn('withdrawal_id', 'bigint', c => c.notNull().references('withdrawals.id'))
        .addColumn('op_id', 'varchar(32)', c => c.notNull().references('orders.op_id'))
        .addColumn('channel', 'varchar(16)', c => c.notNull())
        .addColumn('amount_cents', 'bigint', c => c.notNull())
        // what the refund is called at the provider (WeChat Pay: out_refund_no, at most 64 characters)
        .addColumn('out_refund_no', 'varchar(64)', c => c.notNull().unique())
        .addColumn('status', 'varchar(16)', c => c.notNull().defaultTo('pending'))
        .addColumn('provider_refund_id', 'varchar(64)')
        .addColumn('failure', 'varchar(200)')
        .addColumn('settle_tx_id', 'bigint', c => c.references('ledger_transactions.id'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('sent_at', t.timestamp)
        .addColumn('settled_at', t.timestamp)
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('withdrawal_refunds_status_check', sql`status in (${list(REFUND_STATUSES)})`)
        .addCheckConstraint('withdrawal_refunds_amount_check', sql`amount_cents > 0`)
        .execute()
      await db.schema.createIndex('withdrawal_refunds_withdrawal_idx').on('withdrawal_refunds').columns(['withdrawal_id']).execute()
      await db.schema.createIndex('withdrawal_refunds_op_id_idx').on('withdrawal_refunds').columns(['op_id']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('withdrawal_refunds').execute()
      await db.schema.dropTable('withdrawals').execute()
      if (dialect === 'postgres') await sql`alter table orders drop constraint orders_refunded_check`.execute(db)
      await db.schema.alterTable('orders').dropColumn('refunded_cents').execute()
    }
  }
}
