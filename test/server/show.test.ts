/**
 * The player show (issue 27) on SQLite and PostgreSQL: posting one's own prizes with one's own photos
 * (someone else's prize, a recycled or combined-away prize, someone else's photo refused), each prize
 * with its proof; the feed (newest, popular, series); one like per account; comments and replies one
 * level deep; reports (three from accounts with a purchase hide; show-moderation.test.ts holds the rest); operators hide and restore (audited, the author mailed); the word
 * list after NFKC and case folding; hourly limits; bad input a 4xx naming the field in the caller's
 * language; authorization before validation; a deleted account's show content erased; no money or
 * prize row changed by any of it.
 */
import { sql } from 'kysely'
import { SHOW_LIMITS } from '../../types/limits'
import { createTestApp, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { startSmtp, type FakeSmtp } from './support/fakes'
import { invariantViolations } from './support/invariants'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { makePng, multipartBody } from '../support/png'
import { deleteAccount } from '../../server/src/domain/account/accountDeletion'
import { blockedWord } from '../../server/src/domain/community/show'
import { designsOfPrizes, release } from '../../server/src/domain/catalogue/stock'

test('the word list matches after NFKC and case folding', () => {
  expect(blockedWord(['Scam'], 'this is a ＳＣＡＭ!')).toBe('Scam')
  expect(blockedWord(['straße'], 'STRASSE sale')).toBe('straße')
  expect(blockedWord(['骗子'], '他是骗子')).toBe('骗子')
  expect(blockedWord(['scam'], 'a fine post')).toBeNull()
  expect(blockedWord([''], 'anything')).toBeNull()
})

describe.each(testDialects())('player show on %s', (dialect) => {
  let t: TestApp
  let smtp: FakeSmtp
  let operator: string
  let operatorId: number

  beforeAll(async () => {
    smtp = await startSmtp()
    t = await createTestApp(dialect, { fakes: { smtp } })
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    operatorId = Number(op.id)
    operator = await loginToken(t.app, op.user_name!, op.password)
  })
  afterAll(async () => {
    await t.close()
    await smtp.close()
  })
  afterEach(async () => { expect(await invariantViolations(t.db)).toEqual([]) })

  const call = (who: Shopper | string | null, path: string, body: unknown, lang?: string) =>
    post(t.app, path, body, { ...(who ? { token: typeof who === 'string' ? who : who.token } : {}), ip: nextIp(), ...(lang ? { lang } : {}) })

  /** A shopper with `n` prizes of a series of its own. */
  async function shopperWithPrizes (n = 2): Promise<{ s: Shopper; seriesId: number; prizeIds: number[] }> {
    const s = await makeShopper(t.app, t.db, t.clock)
    // exactly what the boxes cost: no cash left, so the account may be deleted
    await topUp(t.app, s, 1000 * n)
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const free = (await call(s, '/api/caseCurrent', { seriesId })).body.data.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
    const r = await buy(t.app, s, { caseId, slots: free.slice(0, n) })
    expect(r.body.code).toBe(200)
    return { s, seriesId, prizeIds: r.body.data.prizes.map((p: { prizeId: number }) => p.prizeId) }
  }

  /** A shopper with something at stake (a box bought): its reports count toward hiding (showReports.ts). */
  const stakedShopper = async (): Promise<Shopper> => (await shopperWithPrizes(1)).s

  let shade = 0
  /** A photo uploaded by `s` through the shopper's upload path. */
  async function photo (s: Shopper): Promise<string> {
    const form = multipartBody('file', 'pull.png', 'image/png', makePng(6, 6, [++shade % 250, 40, 90]))
    const res = await t.app.inject({
      method: 'POST', url: `${PREFIX}/api/upload/image`, payload: form.body, remoteAddress: nextIp(),
      headers: { 'content-type': form.contentType, authorization: `Bearer ${s.token}` }
    })
    const body = res.json()
    expect(body.code).toBe(200)
    return body.data.url
  }

  const postOf = async (s: Shopper, prizeIds: number[], over: Record<string, unknown> = {}, lang?: string) =>
    call(s, '/api/show/create', { prizeIds, images: [], text: '第一次就抽到了隐藏款！', ...over }, lang)

  /** The rows of money and prizes, to show the show never changes them. */
  const books = async () => ({
    prizes: await t.db.selectFrom('prizes').select(['id', 'user_id', 'status']).orderBy('id').execute(),
    wallets: await t.db.selectFrom('wallets').selectAll().orderBy('user_id').execute(),
    lines: (await t.db.selectFrom('ledger_lines').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n
  })

  test('anonymous callers get 401 and shoppers 403 on operator calls, before the body is looked at', async () => {
    const { s } = await shopperWithPrizes(1)
    for (const path of ['/api/show/create', '/api/show/like', '/api/show/comment', '/api/show/report', '/api/show/delete']) {
      for (const body of [{}, { bad: 1 }, { postId: 'x' }]) expect((await call(null, path, body)).body.code).toBe(401)
    }
    for (const path of ['/api/operator/show/queue', '/api/operator/show/moderate', '/api/operator/show/words', '/api/operator/show/wordsSave']) {
      for (const body of [{}, { bad: 1 }]) {
        expect((await call(null, path, body)).body.code).toBe(401)
        expect((await call(s, path, body)).body.code).toBe(403)
      }
    }
    // the feed is anyone's; "my posts" is not: 401 in the caller's language, not an empty list
    const mineAnon = await call(null, '/api/show/list', { page: 1, size: 10, sort: 'newest', mine: true }, 'en')
    expect(mineAnon.body.code).toBe(401)
    expect(mineAnon.body.message).toBe('Not logged in, or the session has expired')
    expect((await call(null, '/api/show/list', { page: 1, size: 10, sort: 'newest' })).body.code).toBe(200)
    expect((await call(s, '/api/show/list', { page: 1, size: 10, sort: 'newest', mine: true })).body).toMatchObject({ code: 200, data: { total: 0, list: [] } })
  })

  test('a shopper posts own prizes with own photos; each prize carries its proof; the feed shows it masked; money and prizes unchanged', async () => {
    const { s, seriesId, prizeIds } = await shopperWithPrizes(2)
    const images = [await photo(s), await photo(s)]
    const before = await books()
    const r = await postOf(s, prizeIds, { images, text: '  两个都是我想要的  ' })
    expect(r.body.code).toBe(200)
    const p = r.body.data
    expect(p).toMatchObject({ mine: true, text: '两个都是我想要的', images, likeCount: 0, commentCount: 0, liked: false, status: 'visible', hiddenReason: null })
    expect(p.prizes.map((x: { prizeId: number }) => x.prizeId)).toEqual(prizeIds)
    for (const prize of p.prizes) {
      expect(prize).toMatchObject({ seriesId, origin: 'case', combineProof: null })
      expect(prize.proof).toMatchObject({ caseId: prize.caseId, seriesId })
      expect(prize.proof.commit).toMatch(/^[0-9a-f]{64}$/)
      expect(prize.slot).toBeGreaterThan(0)
    }
    expect(await books()).toEqual(before)
    const user = await t.db.selectFrom('users').select(['nickname', 'user_name']).where('id', '=', s.id).executeTakeFirstOrThrow()
    const name = Array.from(user.nickname || user.user_name!)
    expect(p.authorName).toBe(name.length > 1 ? `${name[0]}***${name[name.length - 1]}` : `${name[0]}***`)
    // anyone reads it, and the feed of its series finds it
    const seen = await call(null, '/api/show/detail', { postId: p.id })
    expect(seen.body.data).toMatchObject({ id: p.id, mine: false, authorName: p.authorName })
    const feed = await call(null, '/api/show/list', { page: 1, size: 10, sort: 'newest', seriesId })
    expect(feed.body.data).toMatchObject({ total: 1, list: [{ id: p.id }] })
    expect(JSON.stringify(feed.body)).not.toContain(user.user_name!)
  })

  test('someone else\'s prize, a recycled or combined-away prize, and someone else\'s photo are refused, naming the field', async () => {
    const a = await shopperWithPrizes(3)
    const b = await shopperWithPrizes(1)
    const other = await postOf(a.s, [b.prizeIds[0]])
    expect(other.body).toMatchObject({ code: 404, data: { field: 'prizeIds' } })
    expect(other.body.message).toContain('Prizes shown')
    expect((await postOf(a.s, [a.prizeIds[0], b.prizeIds[0]], {}, 'zh')).body).toMatchObject({ code: 404, message: '晒的奖品：没有这件奖品，或它不属于你' })
    const recycled = await call(a.s, '/api/prizeRecycle', { prizeIds: [a.prizeIds[1]], idempotencyKey: newKey() })
    expect(recycled.body.code).toBe(200)
    expect((await postOf(a.s, [a.prizeIds[1]])).body).toMatchObject({ code: 422, data: { field: 'prizeIds', status: 'recycled' } })
    // combined away (as a combine leaves an input: its figure is free stock again)
    await t.db.transaction().execute(async trx => {
      await trx.updateTable('prizes').set({ status: 'combined' }).where('id', '=', a.prizeIds[2]).execute()
      await release(trx, await designsOfPrizes(trx, [a.prizeIds[2]]))
    })
    expect((await postOf(a.s, [a.prizeIds[2]], {}, 'zh')).body).toMatchObject({ code: 422, message: '晒的奖品：已回收或已用于合成的奖品不能晒' })
    const theirs = await photo(b.s)
    expect((await postOf(a.s, [a.prizeIds[0]], { images: [theirs] })).body).toMatchObject({ code: 400, data: { field: 'images' } })
    expect((await postOf(a.s, [a.prizeIds[0]], { images: ['/media/art/0a-1.png'] })).body).toMatchObject({ code: 400, data: { field: 'images' } })
    expect(await t.db.selectFrom('show_posts').select('id').where('user_id', '=', a.s.id).execute()).toEqual([])
  })

  test('bad input: a 400 naming the field in the caller\'s language, never a 5xx', async () => {
    const { s, prizeIds } = await shopperWithPrizes(1)
    const cases: Array<[string, unknown, string]> = [
      ['/api/show/create', { prizeIds: [], images: [], text: 'x' }, 'prizeIds'],
      ['/api/show/create', { prizeIds, images: [], text: '' }, 'text'],
      ['/api/show/create', { prizeIds, images: [], text: 'x'.repeat(SHOW_LIMITS.textMax + 1) }, 'text'],
      ['/api/show/create', { prizeIds, images: [], text: 'a\u0000b' }, 'text'],
      ['/api/show/create', { prizeIds: ['1'], images: [], text: 'x' }, 'prizeIds'],
      ['/api/show/create', { prizeIds, images: ['http://evil.example/x.png'], text: 'x' }, 'images'],
      ['/api/show/comment', { postId: 1, text: '' }, 'text'],
      ['/api/show/report', { target: 'post', id: 1, reason: 'because' }, 'reason'],
      ['/api/show/list', { page: 1, size: 1000, sort: 'newest' }, 'size']
    ]
    for (const [path, body, field] of cases) {
      for (const lang of ['zh', 'en']) {
        const r = await call(s, path, body, lang)
        expect(r.status).toBe(200)
        expect(r.body.code).toBe(400)
        // an element of a list is named by its place (prizeIds.0)
        expect(r.body.data.field.split('.')[0]).toBe(field)
      }
    }
    const zh = await call(s, '/api/show/create', { prizeIds, images: [], text: '' }, 'zh')
    expect(zh.body.message).toContain('晒单内容')
    const en = await call(s, '/api/show/comment', { postId: 1, text: '' }, 'en')
    expect(en.body.message).toContain('Comment')
    const blank = await postOf(s, prizeIds, { text: '   ' })
    expect(blank.body).toMatchObject({ code: 400, data: { field: 'text' } })
  })

  test('one like per account: liking twice is one like; taking it back; the newest and popular feeds', async () => {
    const a = await shopperWithPrizes(1)
    const b = await shopperWithPrizes(1)
    const first = (await postOf(a.s, a.prizeIds)).body.data
    const second = (await postOf(b.s, b.prizeIds)).body.data
    const fan = await makeShopper(t.app, t.db, t.clock)
    expect((await call(fan, '/api/show/like', { postId: first.id, liked: true })).body.data).toEqual({ liked: true, likeCount: 1 })
    expect((await call(fan, '/api/show/like', { postId: first.id, liked: true })).body.data).toEqual({ liked: true, likeCount: 1 })
    const twins = await Promise.all([1, 2, 3].map(() => call(b.s, '/api/show/like', { postId: first.id, liked: true })))
    expect(twins.every(x => x.body.code === 200)).toBe(true)
    expect((await call(fan, '/api/show/detail', { postId: first.id })).body.data).toMatchObject({ likeCount: 2, liked: true })
    expect(await t.db.selectFrom('show_likes').select('user_id').where('post_id', '=', first.id).execute()).toHaveLength(2)
    const popular = (await call(null, '/api/show/list', { page: 1, size: 30, sort: 'popular' })).body.data.list.map((p: { id: number }) => p.id)
    expect(popular.indexOf(first.id)).toBeLessThan(popular.indexOf(second.id))
    const newest = (await call(null, '/api/show/list', { page: 1, size: 30, sort: 'newest' })).body.data.list.map((p: { id: number }) => p.id)
    expect(newest.indexOf(second.id)).toBeLessThan(newest.indexOf(first.id))
    expect((await call(fan, '/api/show/like', { postId: first.id, liked: false })).body.data).toEqual({ liked: false, likeCount: 1 })
    expect((await call(fan, '/api/show/like', { postId: first.id, liked: false })).body.data).toEqual({ liked: false, likeCount: 1 })
    expect((await call(fan, '/api/show/like', { postId: 99999999, liked: true })).body.code).toBe(404)
  })

  test(`popular ranks by the likes of the last ${SHOW_LIMITS.popularDays} days: a post liked long ago sinks below one liked now`, async () => {
    const a = await shopperWithPrizes(1)
    const b = await shopperWithPrizes(1)
    const old = (await postOf(a.s, a.prizeIds)).body.data
    const fresh = (await postOf(b.s, b.prizeIds)).body.data
    const fans = await Promise.all([1, 2, 3].map(() => makeShopper(t.app, t.db, t.clock)))
    for (const fan of fans) expect((await call(fan, '/api/show/like', { postId: old.id, liked: true })).body.code).toBe(200)
    const order = async () => (await call(null, '/api/show/list', { page: 1, size: 30, sort: 'popular' })).body.data.list.map((p: { id: number }) => p.id)
    // three likes today against none: the old post first
    let ids = await order()
    expect(ids.indexOf(old.id)).toBeLessThan(ids.indexOf(fresh.id))
    // those three likes were given a day before the window (the clock is the app's: sessions stay live)
    const before = new Date(t.clock.now() - (SHOW_LIMITS.popularDays + 1) * 24 * 60 * 60 * 1000).toISOString()
    await t.db.updateTable('show_likes').set({ created_at: before }).where('post_id', '=', old.id).execute()
    expect((await call(fans[0], '/api/show/like', { postId: fresh.id, liked: true })).body.code).toBe(200)
    ids = await order()
    expect(ids.indexOf(fresh.id)).toBeLessThan(ids.indexOf(old.id))
    // neither liked in the window: all likes decide again (3 against 0)
    expect((await call(fans[0], '/api/show/like', { postId: fresh.id, liked: false })).body.code).toBe(200)
    ids = await order()
    expect(ids.indexOf(old.id)).toBeLessThan(ids.indexOf(fresh.id))
  })

  test('comments and replies one level deep; a reply to a reply is refused naming the field', async () => {
    const a = await shopperWithPrizes(1)
    const p = (await postOf(a.s, a.prizeIds)).body.data
    const c = await makeShopper(t.app, t.db, t.clock)
    const top = await call(c, '/api/show/comment', { postId: p.id, text: '恭喜！' })
    expect(top.body).toMatchObject({ code: 200, data: { text: '恭喜！', mine: true, status: 'visible' } })
    const reply = await call(a.s, '/api/show/comment', { postId: p.id, parentId: top.body.data.id, text: '谢谢' })
    expect(reply.body.code).toBe(200)
    const deeper = await call(c, '/api/show/comment', { postId: p.id, parentId: reply.body.data.id, text: '不客气' }, 'zh')
    expect(deeper.body).toMatchObject({ code: 422, data: { field: 'parentId' }, message: '回复的评论：只能回复评论，不能回复回复' })
    const elsewhere = (await postOf(a.s, a.prizeIds)).body.data
    expect((await call(c, '/api/show/comment', { postId: elsewhere.id, parentId: top.body.data.id, text: 'x' })).body).toMatchObject({ code: 404, data: { field: 'parentId' } })
    const list = await call(null, '/api/show/comments', { postId: p.id, page: 1, size: 10 })
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id: top.body.data.id, text: '恭喜！', mine: false, replies: [{ id: reply.body.data.id, text: '谢谢' }] }] })
    expect((await call(null, '/api/show/detail', { postId: p.id })).body.data.commentCount).toBe(2)
  })

  test('three reports from different accounts hide a post until reviewed; an operator hides (author mailed, audited) and restores', async () => {
    const { s, prizeIds } = await shopperWithPrizes(1)
    // an author with a mail address, to be told
    const email = `author${s.id}@example.test`
    await t.db.updateTable('users').set({ email }).where('id', '=', s.id).execute()
    const p = (await postOf(s, prizeIds)).body.data
    expect((await call(s, '/api/show/report', { target: 'post', id: p.id, reason: 'spam' })).body.code).toBe(422)
    const reporters = [await stakedShopper(), await stakedShopper(), await stakedShopper()]
    expect((await call(reporters[0], '/api/show/report', { target: 'post', id: p.id, reason: 'fake', note: '图是网上的' })).body.data).toEqual({ status: 'visible' })
    // the same account again counts once
    expect((await call(reporters[0], '/api/show/report', { target: 'post', id: p.id, reason: 'fake' })).body.data).toEqual({ status: 'visible' })
    expect((await call(reporters[1], '/api/show/report', { target: 'post', id: p.id, reason: 'spam' })).body.data).toEqual({ status: 'visible' })
    expect((await call(reporters[2], '/api/show/report', { target: 'post', id: p.id, reason: 'fake' })).body.data).toEqual({ status: 'reported' })
    expect((await call(null, '/api/show/detail', { postId: p.id })).body.code).toBe(404)
    expect((await call(null, '/api/show/list', { page: 1, size: 30, sort: 'newest' })).body.data.list.map((x: { id: number }) => x.id)).not.toContain(p.id)
    expect((await call(s, '/api/show/detail', { postId: p.id })).body.data.status).toBe('reported')
    const queue = await call(operator, '/api/operator/show/queue', { page: 1, size: 30, filter: 'reported' })
    const item = queue.body.data.list.find((x: { id: number; target: string }) => x.target === 'post' && x.id === p.id)
    expect(item).toMatchObject({ reportCount: 3, status: 'reported', notes: ['图是网上的'] })
    expect(item.reasons).toEqual(expect.arrayContaining([{ reason: 'fake', count: 2 }, { reason: 'spam', count: 1 }]))

    // hiding needs a reason told to the author
    expect((await call(operator, '/api/operator/show/moderate', { target: 'post', id: p.id, action: 'hide' }, 'zh')).body).toMatchObject({ code: 400, data: { field: 'reason' } })
    const sent = smtp.mails.length
    const hidden = await call(operator, '/api/operator/show/moderate', { target: 'post', id: p.id, action: 'hide', reason: '照片不是本人拍摄' })
    expect(hidden.body.data).toMatchObject({ status: 'hidden', hiddenReason: '照片不是本人拍摄' })
    expect(smtp.mails.length).toBe(sent + 1)
    const mail = smtp.mails[smtp.mails.length - 1]
    expect(mail.to).toEqual([email])
    expect(mail.text).toContain('照片不是本人拍摄')
    expect((await call(s, '/api/show/detail', { postId: p.id })).body.data).toMatchObject({ status: 'hidden', hiddenReason: '照片不是本人拍摄' })
    expect((await call(reporters[0], '/api/show/detail', { postId: p.id })).body.code).toBe(404)

    const restored = await call(operator, '/api/operator/show/moderate', { target: 'post', id: p.id, action: 'restore' })
    expect(restored.body.data).toMatchObject({ status: 'visible', hiddenReason: null, reportCount: 0 })
    expect(smtp.mails.length).toBe(sent + 2)
    expect((await call(null, '/api/show/detail', { postId: p.id })).body.data.status).toBe('visible')
    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'show_post').where('entity_id', '=', p.id).orderBy('id').execute()
    expect(audit.map(a => [a.action, Number(a.actor_id)])).toEqual([['show.hide', operatorId], ['show.restore', operatorId]])
    expect(JSON.parse(audit[0].detail)).toMatchObject({ before: { status: 'reported' }, after: { status: 'hidden', hiddenReason: '照片不是本人拍摄' }, userId: s.id })
    // reviewed: the old reports no longer count, and their accounts cannot report it again (show-moderation.test.ts)
    expect((await call(reporters[0], '/api/show/report', { target: 'post', id: p.id, reason: 'fake' })).body.data).toEqual({ status: 'visible' })
  })

  test('a comment: three reports hide it, an operator hides it for good; others see an empty hidden comment', async () => {
    const a = await shopperWithPrizes(1)
    const p = (await postOf(a.s, a.prizeIds)).body.data
    const c = await makeShopper(t.app, t.db, t.clock)
    const comment = (await call(c, '/api/show/comment', { postId: p.id, text: '加我微信买便宜货' })).body.data
    for (let i = 0; i < SHOW_LIMITS.reportsToHide; i++) {
      const r = await call(await stakedShopper(), '/api/show/report', { target: 'comment', id: comment.id, reason: 'spam' })
      expect(r.body.data.status).toBe(i === SHOW_LIMITS.reportsToHide - 1 ? 'reported' : 'visible')
    }
    const seen = (await call(null, '/api/show/comments', { postId: p.id, page: 1, size: 10 })).body.data.list[0]
    expect(seen).toMatchObject({ status: 'reported', text: '' })
    // hidden from the thread, it is not there to answer or to report again (the page offers neither)
    const other = await makeShopper(t.app, t.db, t.clock)
    const hiddenChecks = async () => {
      const reply = await call(other, '/api/show/comment', { postId: p.id, parentId: comment.id, text: '真的吗' }, 'en')
      expect(reply.body).toMatchObject({ code: 404, data: { field: 'parentId' } })
      const again = await call(other, '/api/show/report', { target: 'comment', id: comment.id, reason: 'spam' })
      expect(again.body.code).toBe(404)
      const rows = await t.db.selectFrom('show_comments').select(eb => eb.fn.countAll<number>().as('n')).where('post_id', '=', p.id).executeTakeFirstOrThrow()
      expect(Number(rows.n)).toBe(1)
      const reports = await t.db.selectFrom('show_reports').select(eb => eb.fn.countAll<number>().as('n')).where('target', '=', 'comment').where('target_id', '=', comment.id).executeTakeFirstOrThrow()
      expect(Number(reports.n)).toBe(SHOW_LIMITS.reportsToHide)
    }
    await hiddenChecks()
    const r = await call(operator, '/api/operator/show/moderate', { target: 'comment', id: comment.id, action: 'hide', reason: '广告' })
    expect(r.body.data).toMatchObject({ target: 'comment', postId: p.id, status: 'hidden' })
    const own = (await call(c, '/api/show/comments', { postId: p.id, page: 1, size: 10 })).body.data.list[0]
    expect(own).toMatchObject({ status: 'hidden', text: '加我微信买便宜货', hiddenReason: '广告' })
    await hiddenChecks()
    expect((await call(operator, '/api/operator/show/queue', { page: 1, size: 30, filter: 'hidden' })).body.data.list.some((x: { target: string; id: number }) => x.target === 'comment' && x.id === comment.id)).toBe(true)
    const audit = await t.db.selectFrom('audit_log').select('action').where('entity', '=', 'show_comment').where('entity_id', '=', comment.id).execute()
    expect(audit.map(x => x.action)).toEqual(['show.hide'])
  })

  test('the moderation queue merges posts and comments by time: pages of 2 put together are the one long page', async () => {
    for (let i = 0; i < 3; i++) {
      const a = await shopperWithPrizes(1)
      const p = (await postOf(a.s, a.prizeIds)).body.data
      const comment = (await call(await makeShopper(t.app, t.db, t.clock), '/api/show/comment', { postId: p.id, text: `第${i}条评论` })).body.data
      for (const [target, id] of [['comment', comment.id], ['post', p.id]] as const) {
        t.clock.advance(60 * 1000)
        expect((await call(operator, '/api/operator/show/moderate', { target, id, action: 'hide', reason: '测试' })).body.code).toBe(200)
      }
    }
    const long = (await call(operator, '/api/operator/show/queue', { page: 1, size: SHOW_LIMITS.pageSizeMax, filter: 'hidden' })).body.data
    expect(long.total).toBeGreaterThanOrEqual(6)
    const shown = long.list.slice(0, 12)
    // the newest first: the last post hidden, then its comment, and so on
    expect(shown.slice(0, 2).map((x: { target: string }) => x.target)).toEqual(['post', 'comment'])
    const paged: unknown[] = []
    for (let page = 1; paged.length < shown.length; page++) {
      const r = (await call(operator, '/api/operator/show/queue', { page, size: 2, filter: 'hidden' })).body.data
      expect(r.total).toBe(long.total)
      expect(r.list.length).toBeLessThanOrEqual(2)
      paged.push(...r.list)
    }
    expect(paged.slice(0, shown.length)).toEqual(shown)
  })

  test('the operators\' word list (audited) refuses posts and comments that hold a word, after NFKC and case folding', async () => {
    const a = await shopperWithPrizes(1)
    const saved = await call(operator, '/api/operator/show/wordsSave', { words: ['Scam', ' scam ', '代购'] })
    expect(saved.body.data).toEqual({ words: ['Scam', '代购'] })
    expect((await call(operator, '/api/operator/show/words', {})).body.data).toEqual({ words: ['Scam', '代购'] })
    const refused = await postOf(a.s, a.prizeIds, { text: 'no ＳＣＡＭ here' })
    expect(refused.body).toMatchObject({ code: 422, data: { field: 'text' } })
    expect(refused.body.message).toContain('Scam')
    expect((await postOf(a.s, a.prizeIds, { text: '找我代购' }, 'zh')).body.message).toBe('晒单内容包含不允许的词：代购')
    const p = (await postOf(a.s, a.prizeIds, { text: 'all fine' })).body.data
    expect((await call(a.s, '/api/show/comment', { postId: p.id, text: 'SCAM!' })).body).toMatchObject({ code: 422, data: { field: 'text' } })
    const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('action', '=', 'show.words').execute()
    expect(audit.length).toBeGreaterThanOrEqual(1)
    await call(operator, '/api/operator/show/wordsSave', { words: [] })
    expect((await postOf(a.s, a.prizeIds, { text: 'a scam? no' })).body.code).toBe(200)
  })

  test('hourly limits: posts and comments (429 saying when); a refused post costs nothing', async () => {
    const a = await shopperWithPrizes(1)
    expect((await postOf(a.s, [99999999])).body.code).toBe(404)
    for (let i = 0; i < SHOW_LIMITS.postsPerHour; i++) expect((await postOf(a.s, a.prizeIds)).body.code).toBe(200)
    const over = await postOf(a.s, a.prizeIds, {}, 'zh')
    expect(over.body).toMatchObject({ code: 429, message: expect.stringContaining(`每小时最多发 ${SHOW_LIMITS.postsPerHour} 条晒单`) })
    expect(over.body.data.retryAfter).toBeGreaterThan(0)
    const p = (await call(null, '/api/show/list', { page: 1, size: 1, sort: 'newest' })).body.data.list[0]
    const c = await makeShopper(t.app, t.db, t.clock)
    for (let i = 0; i < SHOW_LIMITS.commentsPerHour; i++) expect((await call(c, '/api/show/comment', { postId: p.id, text: `#${i}` })).body.code).toBe(200)
    expect((await call(c, '/api/show/comment', { postId: p.id, text: 'one more' })).body.code).toBe(429)
    t.clock.advance(61 * 60 * 1000)
    expect((await call(c, '/api/show/comment', { postId: p.id, text: 'an hour later' })).body.code).toBe(200)
  })

  test('the author deletes a post; a deleted account\'s posts, comments, likes and photos are erased (PIPL)', async () => {
    const a = await shopperWithPrizes(2)
    const img = await photo(a.s)
    const gone = (await postOf(a.s, [a.prizeIds[0]])).body.data
    const other = await makeShopper(t.app, t.db, t.clock)
    expect((await call(other, '/api/show/delete', { postId: gone.id })).body.code).toBe(404)
    expect((await call(a.s, '/api/show/delete', { postId: gone.id })).body.data).toEqual({ postId: gone.id })
    expect((await call(null, '/api/show/detail', { postId: gone.id })).body.code).toBe(404)

    const kept = (await postOf(a.s, a.prizeIds, { images: [img] })).body.data
    const b = await shopperWithPrizes(1)
    const theirs = (await postOf(b.s, b.prizeIds)).body.data
    const top = (await call(a.s, '/api/show/comment', { postId: theirs.id, text: '好看' })).body.data
    await call(b.s, '/api/show/comment', { postId: theirs.id, parentId: top.id, text: '谢谢' })
    await call(a.s, '/api/show/like', { postId: theirs.id, liked: true })
    await call(b.s, '/api/show/like', { postId: kept.id, liked: true })
    await call(a.s, '/api/show/report', { target: 'post', id: theirs.id, reason: 'other' })
    await deleteAccount(t.db, t.clock.now, dialect, a.s.id, true)
    expect((await call(null, '/api/show/detail', { postId: kept.id })).body.code).toBe(404)
    for (const table of ['show_posts', 'show_comments', 'show_likes', 'show_reports'] as const) {
      expect(await t.db.selectFrom(table).select('user_id').where('user_id', '=', a.s.id).execute()).toEqual([])
    }
    expect(await t.db.selectFrom('media').select('sha256').where('uploaded_by', '=', a.s.id).where('sha256', '=', img.slice(9, 73)).execute()).toEqual([])
    expect((await call(null, '/api/show/detail', { postId: theirs.id })).body.data).toMatchObject({ likeCount: 0, commentCount: 0 })
    // the prizes stay with the anonymous row, as the books require
    expect(await t.db.selectFrom('prizes').select('id').where('user_id', '=', a.s.id).execute()).toHaveLength(2)
    // its report on theirs went, and no longer counts
    expect(await t.db.selectFrom('show_posts').select('report_count').where('id', '=', theirs.id).executeTakeFirstOrThrow()).toEqual({ report_count: 0 })
  })

  test('a deleted account\'s reports stop counting: what they hid shows again until three live accounts with a stake report it', async () => {
    const { s, prizeIds } = await shopperWithPrizes(1)
    const p = (await postOf(s, prizeIds)).body.data
    const r = [await stakedShopper(), await stakedShopper(), await stakedShopper(), await stakedShopper()]
    for (const who of r.slice(0, 2)) expect((await call(who, '/api/show/report', { target: 'post', id: p.id, reason: 'spam' })).body.data).toEqual({ status: 'visible' })
    expect((await call(r[2], '/api/show/report', { target: 'post', id: p.id, reason: 'spam' })).body.data).toEqual({ status: 'reported' })
    await deleteAccount(t.db, t.clock.now, dialect, r[0].id, true)
    expect(await t.db.selectFrom('show_posts').select(['report_count', 'status']).where('id', '=', p.id).executeTakeFirstOrThrow()).toEqual({ report_count: 2, status: 'visible' })
    expect((await call(null, '/api/show/detail', { postId: p.id })).body.data.status).toBe('visible')
    expect((await call(r[3], '/api/show/report', { target: 'post', id: p.id, reason: 'fake' })).body.data).toEqual({ status: 'reported' })
    expect(await t.db.selectFrom('show_posts').select('report_count').where('id', '=', p.id).executeTakeFirstOrThrow()).toEqual({ report_count: 3 })
  })

  /** PostgreSQL: waits until `n` sessions of this database wait for a row lock. */
  async function lockWaits (n: number): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db)
      if (Number(rows[0].n) >= n) return
      await new Promise(resolve => setTimeout(resolve, 25))
    }
    throw new Error(`fewer than ${n} sessions came to wait for a lock`)
  }

  /** A transaction that runs `first`, then stays open until the answered function is called. */
  async function heldOpen (first: (trx: typeof t.db) => Promise<void>): Promise<() => Promise<void>> {
    let release!: () => void
    let ready!: () => void
    const isReady = new Promise<void>(resolve => { ready = resolve })
    const released = new Promise<void>(resolve => { release = resolve })
    const done = t.db.transaction().execute(async trx => { await first(trx); ready(); await released })
    await Promise.race([isReady, done])
    return async () => { release(); await done }
  }

  const onPostgres = dialect === 'postgres' ? test : test.skip

  onPostgres('a like or a comment sent while the post is being deleted answers 404 (not a 500) and leaves nothing naming the post', async () => {
    const a = await shopperWithPrizes(1)
    const p = (await postOf(a.s, a.prizeIds)).body.data
    const b = await makeShopper(t.app, t.db, t.clock)
    const c = (await call(b, '/api/show/comment', { postId: p.id, text: '好看' })).body.data
    // the author's deletion holds the post, then waits for a row another session holds
    const commit = await heldOpen(async trx => { await sql`select id from show_comments where id = ${c.id} for update`.execute(trx) })
    const deleting = call(a.s, '/api/show/delete', { postId: p.id })
    await lockWaits(1)
    const liking = call(b, '/api/show/like', { postId: p.id, liked: true })
    const commenting = call(b, '/api/show/comment', { postId: p.id, text: '还在吗' })
    await lockWaits(3)
    await commit()
    expect((await deleting).body.data).toEqual({ postId: p.id })
    expect((await liking).body).toMatchObject({ code: 404 })
    expect((await commenting).body).toMatchObject({ code: 404 })
    for (const table of ['show_likes', 'show_comments'] as const) {
      expect(await t.db.selectFrom(table).select('post_id').where('post_id', '=', p.id).execute()).toEqual([])
    }
  })

  onPostgres('an account deleted while another shopper\'s like is in flight: the post\'s like count still matches its likes', async () => {
    const a = await shopperWithPrizes(1)
    const p = (await postOf(a.s, a.prizeIds)).body.data
    const leaver = await makeShopper(t.app, t.db, t.clock)
    const other = await makeShopper(t.app, t.db, t.clock)
    expect((await call(leaver, '/api/show/like', { postId: p.id, liked: true })).body.data).toEqual({ liked: true, likeCount: 1 })
    // another shopper's like, as setLike runs it (the post held with KEY SHARE, the like, the count), not yet committed
    const commit = await heldOpen(async trx => {
      await sql`select id from show_posts where id = ${p.id} for key share`.execute(trx)
      await sql`insert into show_likes (post_id, user_id, created_at) values (${p.id}, ${other.id}, ${new Date(t.clock.now()).toISOString()})`.execute(trx)
      await sql`update show_posts set like_count = like_count + 1 where id = ${p.id}`.execute(trx)
    })
    const erasing = deleteAccount(t.db, t.clock.now, dialect, leaver.id, true)
    await lockWaits(1)
    await commit()
    await erasing
    const likes = await t.db.selectFrom('show_likes').select('user_id').where('post_id', '=', p.id).execute()
    expect(likes.map(l => Number(l.user_id))).toEqual([other.id])
    expect(await t.db.selectFrom('show_posts').select('like_count').where('id', '=', p.id).executeTakeFirstOrThrow()).toEqual({ like_count: 1 })
  })
})
