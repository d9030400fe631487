import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../dialect'

/**
 * Stock (issue 50): each design's figures in the warehouse, and how many of them are spoken for.
 *
 *  stock      figures of the design on hand; operators count them (the series editor), a parcel that
 *             leaves or a prize handed over at a pickup point takes one out
 *  committed  of those, the ones spoken for: in an unsold slot of a case on sale, or a prize of a live
 *             account still in the warehouse (status 'warehouse', or 'shipping' while its parcel has not
 *             left and, at a pickup point, it has not been handed over)
 *
 * The database itself holds 0 <= committed <= stock, so no code path can sell a figure the warehouse
 * does not hold (domain/catalogue/stock.ts). A shop that ran before this had no counts: each design's
 * stock starts at what is spoken for today, so nothing already sold or shown in a case is lost, and no
 * new case is made until an operator enters the warehouse's counts.
 */
export function stock (dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      if (dialect === 'postgres') {
        await db.schema.alterTable('designs').addColumn('stock', 'integer', c => c.notNull().defaultTo(0)).execute()
        await db.schema.alterTable('designs').addColumn('committed', 'integer', c => c.notNull().defaultTo(0)).execute()
        await sql`alter table designs add constraint designs_stock_check check (committed >= 0 and committed <= stock)`.execute(db)
      } else {
        // SQLite adds no table constraint to a table; a column's CHECK may name the other column
        await db.schema.alterTable('designs').addColumn('stock', 'integer', c => c.notNull().defaultTo(0).check(sql`stock >= 0`)).execute()
        await db.schema.alterTable('designs').addColumn('committed', 'integer', c => c.notNull().defaultTo(0).check(sql`committed >= 0 and committed <= stock`)).execute()
      }
      await sql`
        update designs set
          committed = (${committedCountSql}),
          stock = (${committedCountSql})`.execute(db)
    },
    async down (db: Kysely<any>) {
      if (dialect === 'postgres') await sql`alter table designs drop constraint designs_stock_check`.execute(db)
      await db.schema.alterTable('designs').dropColumn('committed').execute()
      await db.schema.alterTable('designs').dropColumn('stock').execute()
    }
  }
}

/** What is spoken for of the design `designs.id` (the same count as domain/catalogue/stock.ts committedCounts). */
const committedCountSql = sql`
  (select count(*) from case_slots cs join cases c on c.id = cs.case_id
    where cs.design_id = designs.id and c.status = 'on_sale' and cs.sold_to is null)
  + (select count(*) from prizes p join users u on u.id = p.user_id
    where p.design_id = designs.id and u.deleted_at is null
      and (p.status = 'warehouse' or (p.status = 'shipping' and exists (
        select 1 from shipment_items si join shipments s on s.id = si.shipment_id
        where si.prize_id = p.id and s.status = 'requested' and si.handed_at is null))))`
