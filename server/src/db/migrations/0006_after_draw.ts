import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/** Ledger accounts after this migration (house accounts carry no user_id). */
export const LEDGER_ACCOUNTS_V2 = [
  'user_cash', 'user_credit', 'house_sales', 'payment_clearing', 'house_credit',
  // shipping fees paid by shoppers; cash held while a withdrawal waits for an operator; props sold
  'house_shipping', 'withdraw_pending', 'house_props'
] as const
export const USER_ACCOUNTS_V2 = ['user_cash', 'user_credit'] as const
export const LEDGER_KINDS_V2 = [
  'topup', 'purchase', 'refund', 'recycle', 'withdraw', 'reward',
  // a shipment's fee; a withdrawal paid out (approved) or given back (rejected); a prop bought
  'shipping_fee', 'withdraw_payout', 'withdraw_release', 'prop_purchase'
] as const
export const SHIPMENT_STATUSES = ['requested', 'shipping', 'received'] as const

const list = (values: readonly string[]) => sql.join(values.map(v => sql.lit(v)))

/**
 * SQLite cannot change a CHECK constraint in place: the table is rebuilt (the documented procedure:
 * foreign keys off, a copy with the new definition, rows copied with their ids, the old table dropped,
 * the copy renamed, its indexes made again, foreign keys checked). Migrations on SQLite run on one
 * connection outside any transaction, so the pragma takes effect; the rebuild itself is one transaction.
 */
export async function rebuildSqliteTable (db: Kysely<any>, table: string, edit: (createSql: string) => string, columns?: readonly string[]): Promise<void> {
  const rows = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = ${table}`.execute(db)
  const create = rows.rows.find(r => r.type === 'table')?.sql
  if (!create) throw new Error(`no table ${table}`)
  const edited = edit(create)
  if (edited === create) throw new Error(`the definition of ${table} did not change`)
  const indexes = rows.rows.filter(r => r.type === 'index' && r.sql).map(r => r.sql!)
  const temp = `${table}__rebuild`
  const tempCreate = edited.replace(/^CREATE TABLE\s+("?)[A-Za-z_]+\1/i, `CREATE TABLE "${temp}"`)
  await sql`pragma foreign_keys = off`.execute(db)
  try {
    await sql`begin immediate`.execute(db)
    try {
      await sql.raw(tempCreate).execute(db)
      // every column, or the named ones (a rebuild that drops a column)
      const list = columns ? columns.map(c => `"${c}"`).join(', ') : '*'
      await sql.raw(columns ? `insert into "${temp}" (${list}) select ${list} from "${table}"` : `insert into "${temp}" select * from "${table}"`).execute(db)
      await sql.raw(`drop table "${table}"`).execute(db)
      await sql.raw(`alter table "${temp}" rename to "${table}"`).execute(db)
      for (const index of indexes) await sql.raw(index).execute(db)
      const broken = await sql`pragma foreign_key_check`.execute(db)
      if (broken.rows.length) throw new Error(`foreign keys broken after rebuilding ${table}`)
      await sql`commit`.execute(db)
    } catch (err) {
      await sql`rollback`.execute(db)
      throw err
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db)
  }
}

/** Replaces the body of the named CHECK constraint in a CREATE TABLE statement of SQLite. */
export function replaceCheck (createSql: string, name: string, body: string): string {
  const start = createSql.indexOf(`"${name}"`) >= 0 ? createSql.indexOf(`"${name}"`) : createSql.indexOf(name)
  if (start < 0) throw new Error(`no constraint ${name}`)
  const open = createSql.indexOf('(', start)
  let depth = 0
  let end = open
  for (; end < createSql.length; end++) {
    if (createSql[end] === '(') depth++
    else if (createSql[end] === ')' && --depth === 0) break
  }
  return `${createSql.slice(0, open)}(${body})${createSql.slice(end + 1)}`
}

const quoted = (values: readonly string[]) => values.map(v => `'${v}'`).join(', ')

/**
 * After the draw (issue 8): new ledger kinds and accounts (shipping fees, withdrawals, props),
 * shipments with their items (each with the code its authenticity QR carries), and the operator's
 * shop settings (shipping rule, withdrawal limits, prices).
 */
export function afterDraw (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      const kindCheck = `kind in (${quoted(LEDGER_KINDS_V2)})`
      const accountCheck = `account in (${quoted(LEDGER_ACCOUNTS_V2)})`
      if (dialect === 'postgres') {
        await sql`alter table ledger_transactions drop constraint ledger_transactions_kind_check`.execute(db)
        await sql`alter table ledger_transactions add constraint ledger_transactions_kind_check check (kind in (${list(LEDGER_KINDS_V2)}))`.execute(db)
        await sql`alter table ledger_lines drop constraint ledger_lines_account_check`.execute(db)
        await sql`alter table ledger_lines add constraint ledger_lines_account_check check (account in (${list(LEDGER_ACCOUNTS_V2)}))`.execute(db)
      } else {
        await rebuildSqliteTable(db, 'ledger_transactions', s => replaceCheck(s, 'ledger_transactions_kind_check', kindCheck))
        await rebuildSqliteTable(db, 'ledger_lines', s => replaceCheck(s, 'ledger_lines_account_check', accountCheck))
      }

      await db.schema.createTable('shop_settings')
        .addColumn('key', 'varchar(64)', c => c.primaryKey())
        .addColumn('value', 'text', c => c.notNull())
        .addColumn('updated_by', 'bigint', c => c.references('users.id').onDelete('set null'))
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .execute()

      await db.schema.createTable('shipments')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('status', 'varchar(16)', c => c.notNull().defaultTo('requested'))
        // the address as it was when the shipment was made (the book may change afterwards)
        .addColumn('name', 'varchar(50)', c => c.notNull())
        .addColumn('phone', 'varchar(20)', c => c.notNull())
        .addColumn('region', 'varchar(100)', c => c.notNull())
        .addColumn('detail', 'varchar(200)', c => c.notNull())
        .addColumn('item_count', 'integer', c => c.notNull())
        .addColumn('fee_cents', 'bigint', c => c.notNull())
        .addColumn('tx_id', 'bigint', c => c.references('ledger_transactions.id'))
        .addColumn('carrier', 'varchar(32)')
        .addColumn('tracking_no', 'varchar(64)')
        .addColumn('shipped_by', 'bigint', c => c.references('users.id').onDelete('set null'))
        .addColumn('received_by', 'varchar(8)')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('shipped_at', t.timestamp)
        .addColumn('received_at', t.timestamp)
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('shipments_status_check', sql`status in (${list(SHIPMENT_STATUSES)})`)
        .addCheckConstraint('shipments_fee_check', sql`fee_cents >= 0 and item_count >= 1`)
        .addCheckConstraint('shipments_received_by_check', sql`received_by is null or received_by in ('shopper', 'auto')`)
        .execute()
      await db.schema.createIndex('shipments_user_id_idx').on('shipments').columns(['user_id', 'id']).execute()
      await db.schema.createIndex('shipments_status_idx').on('shipments').columns(['status', 'id']).execute()

      await db.schema.createTable('shipment_items')
        .addColumn('shipment_id', 'bigint', c => c.notNull().references('shipments.id'))
        // a prize leaves the warehouse once
        .addColumn('prize_id', 'bigint', c => c.notNull().unique().references('prizes.id'))
        // what the authenticity QR on the packing slip carries with the prize id
        .addColumn('verify_code', 'varchar(32)', c => c.notNull().unique())
        .addPrimaryKeyConstraint('shipment_items_pkey', ['shipment_id', 'prize_id'])
        .execute()

      // recycled prizes: the credit each gave (the design's recycle value then), for the record
      await db.schema.alterTable('prizes').addColumn('recycle_tx_id', 'bigint', c => c.references('ledger_transactions.id')).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('prizes').dropColumn('recycle_tx_id').execute()
      await db.schema.dropTable('shipment_items').execute()
      await db.schema.dropTable('shipments').execute()
      await db.schema.dropTable('shop_settings').execute()
    }
  }
}
