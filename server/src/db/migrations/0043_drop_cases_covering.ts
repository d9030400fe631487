import type { Kysely, Migration } from 'kysely'

/**
 * A drop's boxes left (the waiting room's look, dropQueue.ts leftAndShopping) and its cases with a box
 * left (the room's turn, letIn) are read from the index alone: (drop_id, status) sent each of them to the
 * table for every one of the drop's cases, hundreds per look, thousands of looks in a drop
 * (bench/drop.js: 154 us a look for 500 cases).
 */
export function dropCasesCovering (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.createIndex('cases_drop_left_idx').on('cases').columns(['drop_id', 'status', 'sold_count', 'size']).execute()
      await db.schema.dropIndex('cases_drop_id_idx').execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.createIndex('cases_drop_id_idx').on('cases').columns(['drop_id', 'status']).execute()
      await db.schema.dropIndex('cases_drop_left_idx').execute()
    }
  }
}
