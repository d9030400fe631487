import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../dialect'

/**
 * A design's picture described for those who cannot see it (issue 24: the editor proposes it from the
 * picture, /api/pic/pic2word; the pages give it to the image as its accessible name): designs gain
 *   alt, alt_en   the description in Chinese and English ('' until written: the design's name serves)
 */
export function designAlt (_dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('designs').addColumn('alt', 'varchar(200)', c => c.notNull().defaultTo('')).execute()
      await db.schema.alterTable('designs').addColumn('alt_en', 'varchar(200)', c => c.notNull().defaultTo('')).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('designs').dropColumn('alt_en').execute()
      await db.schema.alterTable('designs').dropColumn('alt').execute()
    }
  }
}
