import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Raffle drops (抽签购买, issue 51 item 4; domain/catalogue/raffle.ts, docs/decisions/raffle.md).
 *
 *  drops.raffle_*       a drop sold by raffle: registration from the start until closes_at; the seed
 *                       (its hash published with the drop); at the draw the hash of the list of entries,
 *                       when it was drawn, how many rounds were drawn; each winner's time to buy
 *  raffle_entries       one row per account and drop: the entry's code (what the published list holds),
 *                       and once drawn the round it won and until when its winner may buy
 */
export function raffle (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('drops').addColumn('raffle_closes_at', t.timestamp).execute()
      await db.schema.alterTable('drops').addColumn('raffle_claim_s', 'integer').execute()
      await db.schema.alterTable('drops').addColumn('raffle_seed', 'varchar(64)').execute()
      await db.schema.alterTable('drops').addColumn('raffle_seed_hash', 'varchar(64)').execute()
      await db.schema.alterTable('drops').addColumn('raffle_list_hash', 'varchar(64)').execute()
      await db.schema.alterTable('drops').addColumn('raffle_rounds', 'integer', c => c.notNull().defaultTo(0)).execute()
      await db.schema.createTable('raffle_entries')
        .addColumn('drop_id', 'bigint', c => c.notNull().references('drops.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code', 'varchar(32)', c => c.notNull())
        .addColumn('entered_at', t.timestamp, c => c.notNull())
        .addColumn('won_round', 'integer')
        .addColumn('claim_until', t.timestamp)
        .addPrimaryKeyConstraint('raffle_entries_pkey', ['drop_id', 'user_id'])
        .addUniqueConstraint('raffle_entries_code_key', ['drop_id', 'code'])
        .addCheckConstraint('raffle_entries_round_check', sql`won_round is null or won_round >= 1`)
        .execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('raffle_entries').execute()
      for (const c of ['raffle_rounds', 'raffle_list_hash', 'raffle_seed_hash', 'raffle_seed', 'raffle_claim_s', 'raffle_closes_at']) {
        await db.schema.alterTable('drops').dropColumn(c).execute()
      }
    }
  }
}
