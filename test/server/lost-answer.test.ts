/**
 * A purchase whose answer was lost (issue 48): the retry with the same key replays the first answer and
 * charges once; a retry with a new key (a reload that lost the key, another device) meets the shopper's
 * own purchase and is told so (slot.soldToYou, with the purchase and prize), never a bare "sold", which
 * reads as "nothing happened". Another shopper still hears only "sold", and learns nothing of whose.
 */
import { testDialects } from './support/db'
import { post, type TestApp, createTestApp } from './support/app'
import { currentCaseId, makeSeries, makeShopper, newKey, topUp } from './support/shop'

describe.each(testDialects())('a lost purchase answer on %s', (dialect) => {
  let t: TestApp
  let seriesId: number
  beforeAll(async () => {
    t = await createTestApp(dialect)
    seriesId = await makeSeries(t.db, t.clock, { priceCents: 2500 })
  })
  afterAll(async () => { await t.close() })

  const wallet = async (token: string) => (await post(t.app, '/api/walletBalance', {}, { token })).body.data
  const myPrizes = async (token: string) => (await post(t.app, '/api/prizeList', { page: 1, size: 10 }, { token })).body.data

  test('the same key replays the first purchase; a new key is told the slot is the shopper\'s own, with its opening', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const other = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 3900)
    await topUp(t.app, other, 10000)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const key = newKey('lost')
    const order = { caseId, slots: [4], acknowledged: true, priceCents: 2500 }

    // the first attempt: committed, its answer "lost"
    const first = await post(t.app, '/api/casePurchase', { ...order, idempotencyKey: key }, { token: s.token })
    expect(first.body.code).toBe(200)
    const afterFirst = await wallet(s.token)
    expect(afterFirst).toMatchObject({ cashCents: 1400, creditCents: 0 })

    // the retry with the kept key: the very same answer, charged once
    const replay = await post(t.app, '/api/casePurchase', { ...order, idempotencyKey: key }, { token: s.token })
    expect(replay.body).toEqual(first.body)
    expect(await wallet(s.token)).toEqual(afterFirst)

    // a retry with a new key: the check and the purchase both say it is the shopper's own box
    const prizeId = first.body.data.prizes[0].prizeId
    const purchaseId = first.body.data.purchaseId
    const own = { code: 409, data: { field: 'slots', slot: 4, boughtByYou: { purchaseId, prizeId } } }
    const checked = await post(t.app, '/api/purchaseCheck', order, { token: s.token, lang: 'zh' })
    expect(checked.body).toEqual({ ...own, message: '4 号盒你已经买下了' })
    const again = await post(t.app, '/api/casePurchase', { ...order, idempotencyKey: newKey('again') }, { token: s.token })
    expect(again.body).toEqual({ ...own, message: 'You already bought box 4' })
    // with another free slot beside it: still the own slot that is named
    const mixed = await post(t.app, '/api/purchaseCheck', { ...order, slots: [5, 4] }, { token: s.token })
    expect(mixed.body).toMatchObject(own)
    expect(await wallet(s.token)).toEqual(afterFirst)
    expect((await myPrizes(s.token)).list.map((p: { prizeId: number }) => p.prizeId)).toEqual([prizeId])

    // someone else: "sold", and nothing about the buyer
    const theirs = await post(t.app, '/api/purchaseCheck', order, { token: other.token })
    expect(theirs.body).toEqual({ code: 409, message: 'Slot 4 already sold', data: { field: 'slots', slot: 4 } })
    const theirBuy = await post(t.app, '/api/casePurchase', { ...order, idempotencyKey: newKey('other') }, { token: other.token })
    expect(theirBuy.body).toEqual({ code: 409, message: 'Slot 4 already sold', data: { field: 'slots', slot: 4 } })
    expect(await wallet(other.token)).toMatchObject({ cashCents: 10000 })
  })
})
