import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/** The house and user accounts a ledger line may name (user accounts carry the user_id). */
export const LEDGER_ACCOUNTS = ['user_cash', 'user_credit', 'house_sales', 'payment_clearing', 'house_credit'] as const
export const USER_ACCOUNTS = ['user_cash', 'user_credit'] as const
export const LEDGER_KINDS = ['topup', 'purchase', 'refund', 'recycle', 'withdraw', 'reward'] as const
export const ORDER_STATUSES = ['issued', 'created', 'paid', 'canceled'] as const
export const PAY_CHANNELS = ['sandbox', 'wechat_jsapi', 'wechat_h5'] as const

const list = (values: readonly string[]) => sql.join(values.map(v => sql.lit(v)))

/**
 * The shop (issue 4): bilingual catalogue texts, case slots and choices, wallets and the double-entry
 * ledger, idempotency keys, the age gate, orders and purchases, the audit log.
 * series.name / description and designs.name stay the Chinese texts the table API shows; the English
 * ones live beside them.
 */
export function shop (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('series').addColumn('name_en', 'varchar(100)', c => c.notNull().defaultTo('')).execute()
      await db.schema.alterTable('series').addColumn('description_en', 'text', c => c.notNull().defaultTo('')).execute()
      await db.schema.alterTable('series').addColumn('rules', 'text', c => c.notNull().defaultTo('')).execute()
      await db.schema.alterTable('series').addColumn('rules_en', 'text', c => c.notNull().defaultTo('')).execute()
      // bumped by every change of the series or its designs (servers cache designs and odds by it)
      await db.schema.alterTable('series').addColumn('version', 'integer', c => c.notNull().defaultTo(1)).execute()
      await db.schema.alterTable('designs').addColumn('name_en', 'varchar(100)', c => c.notNull().defaultTo('')).execute()
      await db.schema.alterTable('cases')
        .addColumn('sold_count', 'integer', c => c.notNull().defaultTo(0).check(sql`sold_count >= 0`)).execute()

      await db.schema.createTable('case_slots')
        .addColumn('case_id', 'bigint', c => c.notNull().references('cases.id').onDelete('cascade'))
        .addColumn('slot', 'integer', c => c.notNull())
        .addColumn('design_id', 'bigint', c => c.notNull().references('designs.id'))
        .addColumn('sold_to', 'bigint', c => c.references('users.id'))
        .addColumn('sold_at', t.timestamp)
        .addPrimaryKeyConstraint('case_slots_pkey', ['case_id', 'slot'])
        .addCheckConstraint('case_slots_slot_check', sql`slot >= 1`)
        .execute()

      await db.schema.createTable('case_choices')
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id').onDelete('cascade'))
        .addColumn('case_id', 'bigint', c => c.notNull().references('cases.id').onDelete('cascade'))
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addPrimaryKeyConstraint('case_choices_pkey', ['user_id', 'series_id'])
        .execute()

      await db.schema.createTable('daily_counters')
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(32)', c => c.notNull())
        .addColumn('day', 'varchar(10)', c => c.notNull())
        .addColumn('count', 'integer', c => c.notNull())
        .addPrimaryKeyConstraint('daily_counters_pkey', ['user_id', 'name', 'day'])
        .execute()

      await db.schema.createTable('audit_log')
        .$call(t.id)
        .addColumn('actor_id', 'bigint', c => c.references('users.id').onDelete('set null'))
        .addColumn('action', 'varchar(64)', c => c.notNull())
        .addColumn('entity', 'varchar(32)', c => c.notNull())
        .addColumn('entity_id', 'bigint')
        .addColumn('detail', 'text', c => c.notNull())
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .execute()
      await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity', 'entity_id']).execute()

      await db.schema.createTable('wallets')
        .addColumn('user_id', 'bigint', c => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('cash_cents', 'bigint', c => c.notNull().defaultTo(0))
        .addColumn('credit_cents', 'bigint', c => c.notNull().defaultTo(0))
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('wallets_cash_check', sql`cash_cents >= 0`)
        .addCheckConstraint('wallets_credit_check', sql`credit_cents >= 0`)
        .execute()

      await db.schema.createTable('ledger_transactions')
        .$call(t.id)
        .addColumn('kind', 'varchar(16)', c => c.notNull())
        .addColumn('reference', 'varchar(200)', c => c.notNull())
        // what makes a movement happen at most once (e.g. order:<opId>, purchase:<user>:<key>)
        .addColumn('idempotency_key', 'varchar(150)', c => c.unique())
        .addColumn('user_id', 'bigint', c => c.references('users.id'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('ledger_transactions_kind_check', sql`kind in (${list(LEDGER_KINDS)})`)
        .execute()

      await db.schema.createTable('ledger_lines')
        .$call(t.id)
        .addColumn('tx_id', 'bigint', c => c.notNull().references('ledger_transactions.id'))
        .addColumn('account', 'varchar(32)', c => c.notNull())
        .addColumn('user_id', 'bigint', c => c.references('users.id'))
        .addColumn('amount_cents', 'bigint', c => c.notNull())
        .addCheckConstraint('ledger_lines_account_check', sql`account in (${list(LEDGER_ACCOUNTS)})`)
        .addCheckConstraint('ledger_lines_owner_check',
          sql`(account in (${list(USER_ACCOUNTS)}) and user_id is not null) or (account not in (${list(USER_ACCOUNTS)}) and user_id is null)`)
        .addCheckConstraint('ledger_lines_amount_check', sql`amount_cents <> 0`)
        .execute()
      await db.schema.createIndex('ledger_lines_tx_id_idx').on('ledger_lines').column('tx_id').execute()
      await db.schema.createIndex('ledger_lines_user_id_idx').on('ledger_lines').columns(['user_id', 'id']).execute()

      await db.schema.createTable('idempotency_keys')
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key', 'varchar(64)', c => c.notNull())
        .addColumn('scope', 'varchar(32)', c => c.notNull())
        .addColumn('request_hash', 'varchar(64)', c => c.notNull())
        .addColumn('response', 'text')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'key'])
        .execute()

      await db.schema.createTable('age_checks')
        .addColumn('user_id', 'bigint', c => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('birth_date', 'varchar(10)', c => c.notNull())
        .addColumn('guardian_consent', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('age_checks_consent_check', sql`guardian_consent in (0, 1)`)
        .execute()

      await db.schema.createTable('orders')
        .$call(t.id)
        .addColumn('op_id', 'varchar(32)', c => c.notNull().unique())
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('product_id', 'varchar(64)')
        .addColumn('amount_cents', 'bigint')
        .addColumn('channel', 'varchar(16)')
        .addColumn('status', 'varchar(16)', c => c.notNull().defaultTo('issued'))
        .addColumn('prepay_id', 'varchar(128)')
        .addColumn('prepay_url', 'varchar(1000)')
        .addColumn('prepay_at', t.timestamp)
        .addColumn('transaction_id', 'varchar(64)')
        .addColumn('issued_at', t.timestamp, c => c.notNull())
        .addColumn('created_at', t.timestamp)
        .addColumn('paid_at', t.timestamp)
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('orders_status_check', sql`status in (${list(ORDER_STATUSES)})`)
        .addCheckConstraint('orders_channel_check', sql`channel is null or channel in (${list(PAY_CHANNELS)})`)
        .addCheckConstraint('orders_amount_check', sql`amount_cents is null or amount_cents > 0`)
        .execute()
      await db.schema.createIndex('orders_user_id_idx').on('orders').columns(['user_id', 'id']).execute()

      await db.schema.createTable('purchases')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('case_id', 'bigint', c => c.notNull().references('cases.id'))
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id'))
        .addColumn('slots', 'text', c => c.notNull())
        .addColumn('total_cents', 'bigint', c => c.notNull())
        .addColumn('credit_cents', 'bigint', c => c.notNull())
        .addColumn('cash_cents', 'bigint', c => c.notNull())
        .addColumn('tx_id', 'bigint', c => c.notNull().references('ledger_transactions.id'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('purchases_amounts_check',
          sql`total_cents > 0 and credit_cents >= 0 and cash_cents >= 0 and credit_cents + cash_cents = total_cents`)
        .execute()
      await db.schema.createIndex('purchases_user_id_idx').on('purchases').columns(['user_id', 'created_at']).execute()

      await db.schema.alterTable('prizes').addColumn('purchase_id', 'bigint', c => c.references('purchases.id')).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('prizes').dropColumn('purchase_id').execute()
      for (const table of ['purchases', 'orders', 'age_checks', 'idempotency_keys', 'ledger_lines', 'ledger_transactions',
        'wallets', 'audit_log', 'daily_counters', 'case_choices', 'case_slots']) {
        await db.schema.dropTable(table).execute()
      }
      await db.schema.alterTable('cases').dropColumn('sold_count').execute()
      await db.schema.alterTable('designs').dropColumn('name_en').execute()
      for (const column of ['version', 'rules_en', 'rules', 'description_en', 'name_en']) {
        await db.schema.alterTable('series').dropColumn(column).execute()
      }
    }
  }
}
