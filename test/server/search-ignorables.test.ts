/**
 * Invisible characters in series search and theme tags (issue 48, the word list's class of defect):
 * a zero-width space or soft hyphen in a series name, a tag or a query no longer keeps a name from being
 * found or makes a second tag of the same name; migration 0035 keys again what was stored before, on
 * SQLite and PostgreSQL.
 */
import { testDialects } from './support/db'
import { createTestApp, nextIp, post, type TestApp } from './support/app'
import { seriesInput } from './support/shop'
import { createSeries } from '../../server/src/domain/catalogue/catalogue'
import { setSeriesTags } from '../../server/src/domain/catalogue/seriesSearch'
import { keySuffixes, searchKey } from '../../server/src/db/searchText'
import { migrations } from '../../server/src/db/migrate'

test('the search key drops default-ignorable code points', () => {
  expect(searchKey('Hello\u200bKitty')).toBe('hellokitty')
  expect(searchKey('隐\u00ad藏\u2060款')).toBe('隐藏款')
  expect(searchKey('\u200b\u200d')).toBe('')
})

describe.each(testDialects())('invisible characters in search on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  const found = async (q: string) => {
    const r = await post(t.app, '/api/seriesList', { page: 1, size: 20, q }, { ip: nextIp() })
    expect(r.body.code).toBe(200)
    return r.body.data.list.map((s: { id: number }) => s.id) as number[]
  }
  const tagsOf = async (seriesId: number) => (await t.db.selectFrom('series_theme_tags as st').innerJoin('theme_tags as g', 'g.id', 'st.tag_id')
    .select(['g.id', 'g.key']).where('st.series_id', '=', seriesId).execute()).map(x => ({ id: Number(x.id), key: x.key }))

  test('a name with a zero-width space is found without it, and a query with one finds the plain name; one tag per visible name', async () => {
    const a = await createSeries(t.db, t.clock.now, { ...seriesInput(), title: { zh: '星\u200b河列车', en: 'Milky\u00adWay Train' } })
    const b = await createSeries(t.db, t.clock.now, { ...seriesInput(), title: { zh: '月光列车', en: 'Moonlight Train' } })
    expect(await found('星河')).toEqual([a])
    expect(await found('milkyway')).toEqual([a])
    expect(await found('月\u200b光')).toEqual([b])
    await t.db.transaction().execute(async trx => {
      await setSeriesTags(trx, t.clock.now, a, [{ zh: '限\u200b定', en: 'Limited' }, { zh: '限定', en: 'Limited' }])
      await setSeriesTags(trx, t.clock.now, b, [{ zh: '限定', en: 'Limited' }])
    })
    const [tagA] = await tagsOf(a)
    expect(await tagsOf(a)).toHaveLength(1)
    expect(await tagsOf(b)).toEqual([tagA])
  })

  test('migration 0035 keys again the names and tags stored with an invisible character', async () => {
    const s = await createSeries(t.db, t.clock.now, { ...seriesInput(), title: { zh: '深\u200b海', en: 'Deep\u200bSea' } })
    const other = await createSeries(t.db, t.clock.now, { ...seriesInput(), title: { zh: '浅滩', en: 'Shallows' } })
    // as stored before: suffixes keyed with the zero-width space, a tag of its own for "夏\u200b日"
    await t.db.deleteFrom('series_search_terms').where('series_id', '=', s).execute()
    const old = new Set([...keySuffixes('深\u200b海'), ...keySuffixes('deep\u200bsea')])
    await t.db.insertInto('series_search_terms').values([...old].map(suffix => ({ suffix, series_id: s }))).execute()
    await t.db.transaction().execute(async trx => {
      await setSeriesTags(trx, t.clock.now, other, [{ zh: '夏日', en: 'Summer' }])
    })
    const at = new Date(t.clock.now()).toISOString()
    const stale = await t.db.insertInto('theme_tags').values({ key: '夏\u200b日', name_zh: '夏\u200b日', name_en: 'Summer', created_at: at }).returning('id').executeTakeFirstOrThrow()
    const lone = await t.db.insertInto('theme_tags').values({ key: '秋\u200b天', name_zh: '秋\u200b天', name_en: 'Autumn', created_at: at }).returning('id').executeTakeFirstOrThrow()
    await t.db.insertInto('series_theme_tags').values([{ tag_id: Number(stale.id), series_id: s, sort: 0 }, { tag_id: Number(stale.id), series_id: other, sort: 1 }, { tag_id: Number(lone.id), series_id: s, sort: 1 }]).execute()
    expect(await found('深海')).toEqual([])

    await migrations(dialect)['0035_search_keys_ignorables'].up(t.db)

    expect(await found('深海')).toEqual([s])
    expect(await found('deepsea')).toEqual([s])
    const summer = await t.db.selectFrom('theme_tags').select(['id', 'key']).where('name_en', '=', 'Summer').execute()
    expect(summer.map(x => x.key)).toEqual(['夏日'])
    expect((await tagsOf(s)).map(x => x.key).sort()).toEqual(['夏日', '秋天'].sort())
    expect((await tagsOf(other)).map(x => x.key)).toEqual(['夏日'])
  })
})
