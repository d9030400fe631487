import type { Kysely, Migration } from 'kysely'

/**
 * The next in line (dropQueue.ts nextInLine: a drop's waiting places past the frontier, lowest first) and
 * letting them in (letThemIn) read (drop_id, state, position): the place at a given state is then one
 * range of the index, in order. With (drop_id, position) and (drop_id, state, until) alone, PostgreSQL's
 * kept (generic) plan for the prepared statement went by state and sorted every waiting place of the
 * drop: 3.4 ms a turn with ten thousand waiting, inside the turn's transaction, while the other
 * processes' turns waited for the drop's row (bench/drop.js --pg-stats, 2 API processes).
 */
export function dropQueueLineIndex (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.createIndex('drop_queue_line_idx').on('drop_queue').columns(['drop_id', 'state', 'position']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropIndex('drop_queue_line_idx').execute()
    }
  }
}
