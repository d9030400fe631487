/**
 * Finding a series (issue 27 item 2): seriesList with a search text, filters and sorts, seriesSuggest,
 * theme tags saved in the editor, and bad input answered as a 400 naming the field in the caller's
 * language (never a 5xx), on SQLite and PostgreSQL.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { buy, currentCaseId, makeShopper, seriesInput, topUp, type SeriesOptions } from './support/shop'
import { createSeries } from '../../server/src/domain/catalogue/catalogue'
import { setSeriesTags } from '../../server/src/domain/catalogue/seriesSearch'
import { searchKey } from '../../server/src/db/searchText'

const DAY = 24 * 60 * 60 * 1000

describe('the search key', () => {
  test('NFKC, case folding, full-width and half-width, spaces dropped', () => {
    expect(searchKey('  Hello  Kitty ')).toBe('hellokitty')
    expect(searchKey('ＨＥＬＬＯ　ｋｉｔｔｙ')).toBe('hellokitty')
    expect(searchKey('STRASSE')).toBe(searchKey('straße'))
    expect(searchKey('ｶﾞﾁｬ')).toBe('ガチャ')
    expect(searchKey('Café')).toBe(searchKey('Cafe\u0301'))
    expect(searchKey(' \t ')).toBe('')
  })
})

describe.each(testDialects())('finding a series on %s', (dialect) => {
  let t: TestApp
  const ids: Record<string, number> = {}
  const make = async (name: string, title: { zh: string; en: string }, o: SeriesOptions = {}) => {
    ids[name] = await createSeries(t.db, t.clock.now, { ...seriesInput(o), title })
    t.clock.advance(1000)
    return ids[name]
  }
  const list = async (body: Record<string, unknown>, lang = 'en') => post(t.app, '/api/seriesList', { page: 1, size: 20, ...body }, { lang, ip: nextIp() })
  const found = async (body: Record<string, unknown>) => {
    const r = await list(body)
    expect(r.body).toMatchObject({ code: 200 })
    return r.body.data.list.map((s: { id: number }) => s.id) as number[]
  }

  beforeAll(async () => {
    t = await createTestApp(dialect)
    await make('cats', { zh: '猫咪 咖啡馆', en: 'Cat Café' }, { priceCents: 2900 })
    await make('stars', { zh: '星际旅人', en: 'Star Travellers' }, { priceCents: 5900, hidden: false })
    await make('plain', { zh: '小镇日常', en: 'Small Town Days' }, { priceCents: 1500, rare: 0, hidden: false })
    await make('full', { zh: 'ＡＢＣ乐园', en: 'ABC Park' }, { priceCents: 9900 })
    await make('gone', { zh: '猫咪旧款', en: 'Old Cats' }, { priceCents: 2000, status: 'retired' })
    await make('draft', { zh: '猫咪草稿', en: 'Draft Cats' }, { status: 'draft' })
    await t.db.transaction().execute(async trx => {
      await setSeriesTags(trx, t.clock.now, ids.cats, [{ zh: '动物', en: 'Animals' }, { zh: '治愈', en: 'Cosy' }])
      await setSeriesTags(trx, t.clock.now, ids.stars, [{ zh: '科幻', en: 'Sci-fi' }])
      await setSeriesTags(trx, t.clock.now, ids.gone, [{ zh: '动物', en: 'Animals' }])
      await setSeriesTags(trx, t.clock.now, ids.draft, [{ zh: '草稿专属', en: 'Draft only' }])
    })
  })
  afterAll(async () => { await t.close() })

  test('without a search: the list as before (on sale first, oldest first), with the tags of published series on page 1', async () => {
    const r = await list({})
    expect(r.body.data.list.map((s: { id: number }) => s.id)).toEqual([ids.cats, ids.stars, ids.plain, ids.full, ids.gone])
    expect(r.body.data.tags.map((x: { name: { en: string } }) => x.name.en).sort()).toEqual(['Animals', 'Cosy', 'Sci-fi'])
    expect((await list({ page: 2, size: 2 })).body.data.tags).toBeUndefined()
  })

  test('a text matches zh or en titles anywhere, after normalisation; drafts never', async () => {
    expect(await found({ q: '猫咪' })).toEqual([ids.cats, ids.gone])
    expect(await found({ q: 'cat' })).toEqual([ids.cats, ids.gone])
    expect(await found({ q: 'CAFE\u0301' })).toEqual([ids.cats])
    expect(await found({ q: 'ｃａｔ　ｃａｆé' })).toEqual([ids.cats])
    expect(await found({ q: '  star travel ' })).toEqual([ids.stars])
    expect(await found({ q: 'abc' })).toEqual([ids.full])
    expect(await found({ q: 'ＡＢＣ' })).toEqual([ids.full])
    expect(await found({ q: '乐园' })).toEqual([ids.full])
    expect(await found({ q: 'travellersz' })).toEqual([])
    expect(await found({ q: '草稿' })).toEqual([])
    expect((await list({ q: 'cat' })).body.data.total).toBe(2)
  })

  test('each filter', async () => {
    expect(await found({ priceMinCents: 2000, priceMaxCents: 5900 })).toEqual([ids.stars, ids.cats, ids.gone])
    expect(await found({ priceMaxCents: 1500 })).toEqual([ids.plain])
    expect(await found({ priceMinCents: 9900 })).toEqual([ids.full])
    expect(await found({ rarity: 'rare' })).toEqual([ids.full, ids.stars, ids.cats, ids.gone])
    expect(await found({ rarity: 'hidden' })).toEqual([ids.full, ids.cats, ids.gone])
    expect(await found({ hasHidden: true })).toEqual([ids.full, ids.cats, ids.gone])
    expect(await found({ hasHidden: false })).toEqual([ids.plain, ids.stars])
    const tags = (await list({})).body.data.tags as Array<{ id: number; name: { en: string } }>
    const tag = (en: string) => tags.find(x => x.name.en === en)!.id
    expect(await found({ tagIds: [tag('Animals')] })).toEqual([ids.cats, ids.gone])
    expect(await found({ tagIds: [tag('Animals'), tag('Sci-fi')] })).toEqual([ids.stars, ids.cats, ids.gone])
    expect(await found({ tagIds: [tag('Cosy')], q: 'cat', priceMaxCents: 3000, hasHidden: true, rarity: 'rare' })).toEqual([ids.cats])
  })

  test('each sort: new, price both ways, popular (boxes sold in the last 7 days)', async () => {
    expect(await found({ sort: 'new' })).toEqual([ids.full, ids.plain, ids.stars, ids.cats, ids.gone])
    expect(await found({ sort: 'price_asc' })).toEqual([ids.plain, ids.cats, ids.stars, ids.full, ids.gone])
    expect(await found({ sort: 'price_desc' })).toEqual([ids.full, ids.stars, ids.cats, ids.plain, ids.gone])
    expect((await list({ sort: 'price_asc', page: 2, size: 2 })).body.data).toMatchObject({ total: 5, list: [{ id: ids.stars }, { id: ids.full }] })

    let shopper = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, shopper, 100000)
    const bought = async (seriesId: number, slots: number[]) => {
      const caseId = await currentCaseId(t.app, seriesId, shopper.token)
      const r = await buy(t.app, shopper, { caseId, slots })
      expect(r.body).toMatchObject({ code: 200 })
    }
    // an old sale does not count: 3 boxes of "plain" 8 days ago, then 2 of "stars" and 1 of "cats" today
    await bought(ids.plain, [1, 2, 3])
    t.clock.advance(8 * DAY)
    shopper = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, shopper, 100000)
    await bought(ids.stars, [1, 2])
    await bought(ids.cats, [1])
    expect(await found({ sort: 'popular' })).toEqual([ids.stars, ids.cats, ids.plain, ids.full, ids.gone])
    // counted again once the count is a minute old: the search that finds it old starts the count (it
    // does not wait for it); the searches after it see the new
    await bought(ids.full, [1, 2, 3])
    expect((await found({ sort: 'popular' }))[0]).toBe(ids.stars)
    t.clock.advance(61_000)
    await found({ sort: 'popular' })
    for (let i = 0; i < 50 && (await found({ sort: 'popular' }))[0] !== ids.full; i++) await new Promise(resolve => setTimeout(resolve, 20))
    expect((await found({ sort: 'popular' }))[0]).toBe(ids.full)
  })

  test('suggestions: titles containing the text, on sale first, at most 8', async () => {
    const r = await post(t.app, '/api/seriesSuggest', { q: 'ＣＡＴ' }, { ip: nextIp() })
    expect(r.body).toMatchObject({ code: 200 })
    expect(r.body.data.map((s: { id: number }) => s.id)).toEqual([ids.cats, ids.gone])
    expect(r.body.data[0].title).toEqual({ zh: '猫咪 咖啡馆', en: 'Cat Café' })
    expect((await post(t.app, '/api/seriesSuggest', { q: 'zzz' }, { ip: nextIp() })).body.data).toEqual([])
  })

  test('bad input: a 400 naming the field in the caller\'s language, never a 5xx', async () => {
    expect((await list({ priceMinCents: 3000, priceMaxCents: 1000 }, 'zh')).body).toMatchObject({ code: 400, message: '最高价不能低于最低价', data: { field: 'priceMaxCents' } })
    expect((await list({ priceMinCents: 3000, priceMaxCents: 1000 })).body).toMatchObject({ code: 400, message: 'Highest price cannot be below the lowest price' })
    expect((await list({ q: '   ' }, 'zh')).body).toMatchObject({ code: 400, message: '搜索内容不能只有空格', data: { field: 'q' } })
    expect((await list({ q: '' })).body).toMatchObject({ code: 400, data: { field: 'q', rule: 'minLength' } })
    expect((await list({ q: 'x'.repeat(61) })).body).toMatchObject({ code: 400, data: { field: 'q', rule: 'maxLength' } })
    expect((await list({ q: 'a\u0000b' })).body).toMatchObject({ code: 400, data: { field: 'q' } })
    expect((await list({ sort: 'cheapest' }, 'zh')).body).toMatchObject({ code: 400, message: '排序取值无效', data: { field: 'sort' } })
    expect((await list({ rarity: 'epic' })).body).toMatchObject({ code: 400, data: { field: 'rarity' } })
    expect((await list({ priceMinCents: -1 })).body).toMatchObject({ code: 400, data: { field: 'priceMinCents' } })
    const tooDear = await list({ priceMaxCents: 20001 }, 'zh')
    expect(tooDear.body).toMatchObject({ code: 400, data: { field: 'priceMaxCents' } })
    expect(tooDear.body.message).toContain('最高价')
    expect(tooDear.body.message).not.toContain('Cents')
    expect((await list({ priceMinCents: '10' })).body).toMatchObject({ code: 400, data: { field: 'priceMinCents', rule: 'type' } })
    expect((await list({ hasHidden: 'yes' })).body).toMatchObject({ code: 400, data: { field: 'hasHidden' } })
    expect((await list({ tagIds: [] })).body).toMatchObject({ code: 400, data: { field: 'tagIds' } })
    expect((await list({ tagIds: [1, 1] })).body).toMatchObject({ code: 400, data: { field: 'tagIds' } })
    expect((await list({ tagIds: [0] })).body).toMatchObject({ code: 400 })
    expect((await post(t.app, '/api/seriesSuggest', { q: ' ' }, { lang: 'en', ip: nextIp() })).body).toMatchObject({ code: 400, message: 'Search text cannot be only spaces' })
    expect((await post(t.app, '/api/seriesSuggest', {}, { ip: nextIp() })).body).toMatchObject({ code: 400, data: { field: 'q', rule: 'required' } })
    for (const q of ['%', '_', '\\', "'", '\u{10FFFF}', '😀', '%%%%']) {
      const r = await list({ q })
      expect(r.status).toBe(200)
      expect(r.body.code).toBe(200)
    }
  })

  test('operators give a series theme tags in the editor; shoppers filter by them', async () => {
    const u = await makeUser(t.db, t.clock, { role: 'operator' })
    const token = await loginToken(t.app, u.user_name!, u.password)
    const as = (url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
    const open = (await as('/api/operator/series', { seriesId: ids.plain })).body
    expect(open).toMatchObject({ code: 200, data: { tags: [] } })
    const s = open.data
    const save = (tags: unknown, version = s.version) => as('/api/operator/seriesSave', {
      id: s.id, version, title: s.title, description: s.description, rules: s.rules, cover: s.cover, priceCents: s.priceCents,
      hiddenCasePpm: s.hiddenCasePpm, designs: s.designs.map((d: Record<string, unknown>) => ({ id: d.id, name: d.name, rarity: d.rarity, image: d.image, referenceValueCents: d.referenceValueCents, recycleValueCents: d.recycleValueCents })), tags
    }, 'zh')
    const saved = await save([{ zh: ' 日常 ', en: 'Everyday' }, { zh: 'ＤＯＧＳ', en: 'Dogs' }, { zh: 'dogs', en: 'Dogs again' }])
    expect(saved.body).toMatchObject({ code: 200, data: { tags: [{ zh: '日常', en: 'Everyday' }, { zh: 'ＤＯＧＳ', en: 'Dogs' }] } })
    const tags = (await list({})).body.data.tags as Array<{ id: number; name: { zh: string; en: string } }>
    const everyday = tags.find(x => x.name.en === 'Everyday')!
    expect(await found({ tagIds: [everyday.id] })).toEqual([ids.plain])
    expect((await save([{ zh: '', en: '  ' }], saved.body.data.version)).body).toMatchObject({ code: 400, message: '主题标签（中文）不能为空', data: { field: 'tags.0.zh' } })
    expect((await save(Array.from({ length: 9 }, (_, i) => ({ zh: `标签${i}`, en: `Tag ${i}` })), saved.body.data.version)).body).toMatchObject({ code: 400, data: { field: 'tags' } })
    // tags stay editable once the series is on sale; a save without tags keeps them
    const again = await save(undefined, saved.body.data.version)
    expect(again.body).toMatchObject({ code: 200, data: { tags: [{ zh: '日常' }, { zh: 'ＤＯＧＳ' }] } })
    // a name of 20 characters whose folded key NFKC makes 300 long (one U+FDFA is 15 characters, the
    // most any character becomes): PostgreSQL's key column of 200 answered this with a 500
    const long = '\uFDFA'.repeat(20)
    const wide = await save([{ zh: long, en: 'Blessings' }], again.body.data.version)
    expect(wide.body).toMatchObject({ code: 200, data: { tags: [{ zh: long, en: 'Blessings' }] } })
    const blessings = ((await list({})).body.data.tags as Array<{ id: number; name: { en: string } }>).find(x => x.name.en === 'Blessings')!
    expect(await found({ tagIds: [blessings.id] })).toEqual([ids.plain])
  })
})
