import type { Kysely, Migration } from 'kysely'
import { writeSeriesSearchRows } from '../seriesSearchRows'
import { searchKey } from '../searchText'
import { hasIgnorables } from '../../security/textFold'

/**
 * Search keys drop default-ignorable code points since issue 48 (domain/searchText.ts): a series name or
 * a theme tag stored with one (a zero-width space pasted in) was keyed with it, and would no longer be
 * found by a query that now drops it. Such series are indexed again; such tags get the new key, or, when
 * a tag already has that key (the same name without the invisible character), are merged into it.
 */
export function searchKeysIgnorables (): Migration {
  return {
    async up (db: Kysely<any>) {
      const series = await db.selectFrom('series').select(['id', 'name', 'name_en']).execute()
      for (const s of series) {
        if (hasIgnorables(`${s.name}${s.name_en}`)) await writeSeriesSearchRows(db, Number(s.id))
      }
      const tags = await db.selectFrom('theme_tags').select(['id', 'key', 'name_zh', 'name_en']).orderBy('id').execute()
      for (const t of tags) {
        const key = searchKey(t.name_zh || t.name_en)
        if (key === t.key) continue
        const same = await db.selectFrom('theme_tags').select('id').where('key', '=', key).executeTakeFirst()
        if (!same) {
          await db.updateTable('theme_tags').set({ key }).where('id', '=', t.id).execute()
          continue
        }
        // the series of this tag take the other one (where they have it already, this one just goes)
        const links = await db.selectFrom('series_theme_tags').select(['series_id', 'sort']).where('tag_id', '=', t.id).execute()
        for (const l of links) {
          const has = await db.selectFrom('series_theme_tags').select('series_id').where('tag_id', '=', same.id).where('series_id', '=', l.series_id).executeTakeFirst()
          if (!has) await db.insertInto('series_theme_tags').values({ tag_id: same.id, series_id: l.series_id, sort: l.sort }).execute()
        }
        await db.deleteFrom('series_theme_tags').where('tag_id', '=', t.id).execute()
        await db.deleteFrom('theme_tags').where('id', '=', t.id).execute()
      }
    },
    async down () {
      // the keys without ignorables find what they found before, and more: nothing to undo
    }
  }
}
