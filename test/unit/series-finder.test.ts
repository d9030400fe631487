/**
 * Home's search state (src/pagesA/home/finder.ts): page query params to state and back, and the
 * seriesList request it asks; broken params from a shared link are ignored, never an error.
 */
import { EMPTY_FINDER, addressQuery, filterCount, finderFromParams, finderParams, finderRequest, queryString } from '@/pagesA/home/finder'
import { splitTags } from '@/pagesA/editor/seriesForm'

describe('the finder state', () => {
  test('round trip through query params', () => {
    const state = { q: '猫咪 咖啡', price: '30to60' as const, rarity: 'rare' as const, hidden: 'no' as const, tags: [3, 7], sort: 'price_desc' as const }
    expect(finderFromParams(finderParams(state))).toEqual(state)
    expect(queryString(finderParams(state))).toBe('q=%E7%8C%AB%E5%92%AA%20%E5%92%96%E5%95%A1&price=30to60&rarity=rare&hidden=no&tags=3%2C7&sort=price_desc')
    expect(finderFromParams({ q: '%E7%8C%AB', tags: '3%2C7' })).toMatchObject({ q: '猫', tags: [3, 7] })
    expect(finderParams(EMPTY_FINDER)).toEqual({})
  })

  test('broken params are ignored', () => {
    expect(finderFromParams({ price: 'free', rarity: 'epic', hidden: 'maybe', sort: 'random', tags: 'a,-1,0,2,2', q: '%' })).toEqual({ ...EMPTY_FINDER, q: '%', tags: [2] })
    expect(finderFromParams({ q: 'x'.repeat(100) }).q).toHaveLength(60)
    expect(finderFromParams({ q: '  a\u0000b ' }).q).toBe('ab')
  })

  test('the request: price bands in cents, hidden as a yes/no, nothing when nothing is set', () => {
    expect(finderRequest(EMPTY_FINDER)).toEqual({})
    expect(finderRequest({ ...EMPTY_FINDER, price: 'lt30', hidden: 'yes' })).toEqual({ priceMaxCents: 2999, hasHidden: true })
    expect(finderRequest({ ...EMPTY_FINDER, price: 'gt100', hidden: 'no', tags: [1], sort: 'popular', q: 'cat', rarity: 'rare' }))
      .toEqual({ priceMinCents: 10000, hasHidden: false, tagIds: [1], sort: 'popular', q: 'cat', rarity: 'rare' })
    expect(filterCount({ ...EMPTY_FINDER, price: 'lt30', tags: [1, 2], q: 'x', sort: 'new' })).toBe(3)
  })

  test('theme tags as typed in the editor', () => {
    expect(splitTags(' 动物、治愈，科幻, ,Sci-fi ')).toEqual(['动物', '治愈', '科幻', 'Sci-fi'])
  })

  test("the address keeps the params that are not the finder's, and replaces the finder's own", () => {
    const state = { ...EMPTY_FINDER, q: 'cat', sort: 'popular' as const }
    expect(addressQuery('?x=1&from=share&q=dog&sort=new', state)).toBe('x=1&from=share&q=cat&sort=popular')
    expect(addressQuery('?x=1', EMPTY_FINDER)).toBe('x=1')
    expect(addressQuery('?q=dog&price=under30', EMPTY_FINDER)).toBe('')
    expect(addressQuery('', state)).toBe('q=cat&sort=popular')
  })
})
