import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'
import { rebuildSqliteTable, replaceCheck } from './0006_after_draw'

/**
 * Drops (issue 50): a limited run of a series, every case of it made, shuffled and committed when the
 * drop is created, with one root commitment over the cases' commitments (domain/catalogue/drops.ts).
 *
 *  drops            the run: how many cases, exactly how many of them carry the hidden design, when the
 *                   sale starts, and the root published before it
 *  cases.drop_id    the drop a case belongs to (null: a case made on demand, as before drops)
 *  cases.status     gains 'scheduled': a case of a drop whose sale has not started. Every purchase path
 *                   (the PostgreSQL purchase function included) sells only from cases 'on_sale', so a
 *                   scheduled case cannot be bought by any route before its start.
 */
export function drops (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('drops')
        .$call(t.id)
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id').onDelete('cascade'))
        .addColumn('case_count', 'integer', c => c.notNull())
        .addColumn('hidden_cases', 'integer', c => c.notNull())
        .addColumn('case_size', 'integer', c => c.notNull())
        .addColumn('starts_at', t.timestamp, c => c.notNull())
        .addColumn('root', 'varchar(64)', c => c.notNull())
        .addColumn('created_by', 'bigint')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('drops_counts_check', sql`case_count > 0 and hidden_cases >= 0 and hidden_cases <= case_count and case_size > 0`)
        .execute()
      await db.schema.createIndex('drops_series_id_idx').on('drops').columns(['series_id', 'id']).execute()

      const statuses = sql`status in ('scheduled', 'on_sale', 'sold_out', 'retired')`
      if (dialect === 'postgres') {
        await sql`alter table cases drop constraint cases_status_check`.execute(db)
        await sql`alter table cases add constraint cases_status_check check (${statuses})`.execute(db)
      } else {
        await rebuildSqliteTable(db, 'cases', create => replaceCheck(create, 'cases_status_check', "status in ('scheduled', 'on_sale', 'sold_out', 'retired')"))
      }
      await db.schema.alterTable('cases').addColumn('drop_id', 'bigint', c => c.references('drops.id').onDelete('cascade')).execute()
      await db.schema.createIndex('cases_drop_id_idx').on('cases').columns(['drop_id', 'status']).execute()
    },
    async down (db: Kysely<any>) {
      // a drop's cases not yet on sale were never offered: they go with their drop (their figures are free again)
      await sql`update designs set committed = committed - (
        select count(*) from case_slots cs join cases c on c.id = cs.case_id
        where cs.design_id = designs.id and c.status = 'scheduled' and cs.sold_to is null)`.execute(db)
      await sql`delete from cases where status = 'scheduled'`.execute(db)
      await db.schema.dropIndex('cases_drop_id_idx').execute()
      const before = "status in ('on_sale', 'sold_out', 'retired')"
      if (dialect === 'postgres') {
        await db.schema.alterTable('cases').dropColumn('drop_id').execute()
        await sql`alter table cases drop constraint cases_status_check`.execute(db)
        await sql`alter table cases add constraint cases_status_check check (${sql.raw(before)})`.execute(db)
      } else {
        // SQLite drops no column a foreign key uses: the table is rebuilt without it
        const columns = (await sql<{ name: string }>`select name from pragma_table_info('cases')`.execute(db)).rows.map(r => r.name).filter(n => n !== 'drop_id')
        await rebuildSqliteTable(db, 'cases', create => replaceCheck(create.replace(/,\s*"?drop_id"?[^,]*?on delete cascade/i, ''), 'cases_status_check', before), columns)
      }
      await db.schema.dropTable('drops').execute()
    }
  }
}
