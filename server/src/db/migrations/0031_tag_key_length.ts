import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../dialect'

/**
 * A theme tag's key is its name folded (domain/searchText.ts searchKey: NFKC, case folding, no white
 * space). NFKC can make a name much longer than the SERIES_SEARCH.tagNameMax (20) characters an
 * operator may type: one U+FDFA becomes 15 characters, so 20 of them a key of 300, more than the 200
 * of migration 0027, and PostgreSQL refused the save with a 500. No character's folded key is longer
 * than 15 characters (every code point checked), so a name of 20 makes at most 300, and 400 holds it.
 * SQLite does not enforce a varchar's length.
 */
export function tagKeyLength (dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      if (dialect === 'postgres') await sql`alter table theme_tags alter column key type varchar(400)`.execute(db)
    },
    async down (db: Kysely<any>) {
      if (dialect === 'postgres') await sql`alter table theme_tags alter column key type varchar(200)`.execute(db)
    }
  }
}
