/**
 * The player show's word list and reports against the attacks of issue 48, on SQLite and PostgreSQL:
 *  - invisible characters: a listed word split by U+200B, U+00AD, U+200D or U+2060 (and 禁\u200b词) is
 *    refused as a post and as a comment, on the API, naming the field;
 *  - report-to-hide harassment: reports of accounts with nothing at stake (no purchase) are recorded and
 *    shown to operators, and hide nothing; three reports of accounts that bought hide; after a restore the
 *    same reporters cannot hide it again, only reporters new since the restore count; operators see who
 *    reported what (masked name and id, reason, note, time, weight, reviewed).
 */
import { SHOW_LIMITS } from '../../types/limits'
import type { ShowModerationItem } from '../../types/show'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { invariantViolations } from './support/invariants'
import { buy, currentCaseId, makeSeries, makeShopper, topUp, type Shopper } from './support/shop'
import { deleteAccount } from '../../server/src/domain/account/accountDeletion'
import { blockedWord } from '../../server/src/domain/community/show'
import { dropIgnorables, foldForMatching } from '../../server/src/security/textFold'

/** The invisible characters of the issue, each between the two halves of a listed word. */
const INVISIBLE: Array<[string, string]> = [
  ['U+200B zero-width space', '\u200b'],
  ['U+00AD soft hyphen', '\u00ad'],
  ['U+200D zero-width joiner', '\u200d'],
  ['U+2060 word joiner', '\u2060']
]

describe('the matching fold', () => {
  test.each(INVISIBLE)('%s between the letters of a listed word is dropped before matching', (_name, c) => {
    expect(blockedWord(['spamword'], `buy spam${c}word now`)).toBe('spamword')
    expect(blockedWord(['禁词'], `这是禁${c}词`)).toBe('禁词')
    // a word listed with the character in it matches the plain text too
    expect(blockedWord([`spam${c}word`], 'SPAMWORD')).toBe(`spam${c}word`)
  })

  test('ignorables are dropped before and after NFKC and case folding; visible text is left as it is', () => {
    // U+FFA0 (half-width Hangul filler) becomes U+1160 under NFKC: both ignorable
    expect(foldForMatching('spam\uffa0word')).toBe('spamword')
    expect(foldForMatching('ＳＰＡＭ\u200bＷＯＲＤ')).toBe('spamword')
    // bidirectional controls, variation selectors, the Mongolian vowel separator, tags
    expect(dropIgnorables('a\u202eb\u2066c\ufe0fd\u180ee\u{E0041}f')).toBe('abcdef')
    // visible characters stay: spaces, punctuation, look-alikes (not folded, docs/show.md says so)
    expect(blockedWord(['spamword'], 'spam word')).toBeNull()
    expect(blockedWord(['spamword'], 'sp\u0430mword')).toBeNull()
    expect(blockedWord(['spamword'], 'a fine post')).toBeNull()
  })
})

describe.each(testDialects())('player show moderation on %s', (dialect) => {
  let t: TestApp
  let operator: string

  beforeAll(async () => {
    t = await createTestApp(dialect)
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    operator = await loginToken(t.app, op.user_name!, op.password)
  })
  afterAll(async () => { await t.close() })
  afterEach(async () => { expect(await invariantViolations(t.db)).toEqual([]) })

  const call = (who: Shopper | string | null, path: string, body: unknown, lang?: string) =>
    post(t.app, path, body, { ...(who ? { token: typeof who === 'string' ? who : who.token } : {}), ip: nextIp(), ...(lang ? { lang } : {}) })

  /** A shopper who bought `n` boxes of a series of its own (so it has something at stake). */
  async function shopperWithPrizes (n = 1): Promise<{ s: Shopper; prizeIds: number[] }> {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 1000 * n)
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const free = (await call(s, '/api/caseCurrent', { seriesId })).body.data.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
    const r = await buy(t.app, s, { caseId, slots: free.slice(0, n) })
    expect(r.body.code).toBe(200)
    return { s, prizeIds: r.body.data.prizes.map((p: { prizeId: number }) => p.prizeId) }
  }
  const staked = async () => (await shopperWithPrizes(1)).s
  /** An account registered a moment ago, nothing bought. */
  const fresh = () => makeShopper(t.app, t.db, t.clock)

  const report = async (who: Shopper, target: 'post' | 'comment', id: number, reason = 'spam', note?: string) => {
    const r = await call(who, '/api/show/report', { target, id, reason, ...(note ? { note } : {}) })
    expect(r.body.code).toBe(200)
    return r.body.data.status as string
  }
  const statusOf = async (id: number) => (await t.db.selectFrom('show_posts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
  const queueItem = async (target: 'post' | 'comment', id: number, filter = 'all'): Promise<ShowModerationItem | undefined> => {
    const list: ShowModerationItem[] = (await call(operator, '/api/operator/show/queue', { page: 1, size: SHOW_LIMITS.pageSizeMax, filter })).body.data.list
    return list.find(x => x.target === target && x.id === id)
  }

  describe('invisible characters do not get a listed word past the list', () => {
    let author: { s: Shopper; prizeIds: number[] }
    let postId: number
    beforeAll(async () => {
      author = await shopperWithPrizes(1)
      postId = (await call(author.s, '/api/show/create', { prizeIds: author.prizeIds, images: [], text: '开心' })).body.data.id
      expect((await call(operator, '/api/operator/show/wordsSave', { words: ['spamword', '禁词'] })).body.code).toBe(200)
    })
    afterAll(async () => { await call(operator, '/api/operator/show/wordsSave', { words: [] }) })

    const cases: Array<[string, string, string]> = [
      ...INVISIBLE.map(([name, c]): [string, string, string] => [name, `great spam${c}word deal`, 'spamword']),
      ['U+200B in Chinese', '这是禁\u200b词', '禁词']
    ]

    test.each(cases)('%s: refused as a post and as a comment (422 on text, the word named)', async (_name, text, word) => {
      const before = await t.db.selectFrom('show_posts').select('id').execute()
      const asPost = await call(author.s, '/api/show/create', { prizeIds: author.prizeIds, images: [], text }, 'en')
      expect(asPost.body).toMatchObject({ code: 422, data: { field: 'text', reason: 'blocked_word' } })
      expect(asPost.body.message).toContain(word)
      const asComment = await call(author.s, '/api/show/comment', { postId, text }, 'zh')
      expect(asComment.body).toMatchObject({ code: 422, data: { field: 'text', reason: 'blocked_word' } })
      expect(asComment.body.message).toContain(word)
      // nothing written
      expect(await t.db.selectFrom('show_posts').select('id').execute()).toEqual(before)
      expect(await t.db.selectFrom('show_comments').select('id').where('post_id', '=', postId).execute()).toEqual([])
    })

    test('a reply is checked too; text without a listed word still posts', async () => {
      const ok = await call(author.s, '/api/show/comment', { postId, text: 'spam and words, apart' })
      expect(ok.body.code).toBe(200)
      const reply = await call(author.s, '/api/show/comment', { postId, parentId: ok.body.data.id, text: 'SPAM\u2060WORD' })
      expect(reply.body).toMatchObject({ code: 422, data: { field: 'text' } })
      await t.db.deleteFrom('show_comments').where('post_id', '=', postId).execute()
      await t.db.updateTable('show_posts').set({ comment_count: 0 }).where('id', '=', postId).execute()
    })
  })

  test('reports of accounts made a moment ago, with nothing bought, are recorded and hide nothing; operators see them', async () => {
    const author = await shopperWithPrizes(1)
    const p = (await call(author.s, '/api/show/create', { prizeIds: author.prizeIds, images: [], text: '好运气' })).body.data
    const sybils = [await fresh(), await fresh(), await fresh(), await fresh()]
    for (const s of sybils) expect(await report(s, 'post', p.id, 'offensive', '举报')).toBe('visible')
    expect(await statusOf(p.id)).toBe('visible')
    expect((await call(null, '/api/show/detail', { postId: p.id })).body.data.status).toBe('visible')
    const item = await queueItem('post', p.id, 'reported')
    expect(item).toMatchObject({ reportCount: 4, weightedCount: 0, status: 'visible' })
    expect(item!.reports).toHaveLength(4)
    const names = await t.db.selectFrom('users').select(['id', 'nickname', 'user_name']).where('id', 'in', sybils.map(s => s.id)).execute()
    for (const entry of item!.reports) {
      const u = names.find(n => Number(n.id) === entry.reporterId)!
      expect(u).toBeDefined()
      expect(entry).toMatchObject({ reason: 'offensive', note: '举报', weighted: false, reviewed: false })
      expect(entry.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/)
      // masked, never the name itself
      const name = Array.from(u.nickname || u.user_name!)
      expect(entry.reporterName).toBe(`${name[0]}***${name[name.length - 1]}`)
    }
    // newest first
    expect(item!.reports.map(r => r.reporterId)).toEqual([...sybils].reverse().map(s => s.id))
  })

  test('three reports of accounts that bought hide a post; after a restore the same three cannot hide it again; three new ones can', async () => {
    const author = await shopperWithPrizes(1)
    const p = (await call(author.s, '/api/show/create', { prizeIds: author.prizeIds, images: [], text: '隐藏款！' })).body.data
    const first = [await staked(), await staked(), await staked()]
    const unweighted = await fresh()
    expect(await report(unweighted, 'post', p.id)).toBe('visible')
    expect(await report(first[0], 'post', p.id)).toBe('visible')
    expect(await report(first[1], 'post', p.id)).toBe('visible')
    expect(await report(first[2], 'post', p.id)).toBe('reported')
    const hidden = await queueItem('post', p.id, 'reported')
    expect(hidden).toMatchObject({ status: 'reported', reportCount: 4, weightedCount: 3 })
    expect(hidden!.reports.map(r => [r.reporterId, r.weighted])).toEqual([[first[2].id, true], [first[1].id, true], [first[0].id, true], [unweighted.id, false]])

    const restored = await call(operator, '/api/operator/show/moderate', { target: 'post', id: p.id, action: 'restore' })
    expect(restored.body.data).toMatchObject({ status: 'visible', reportCount: 0, weightedCount: 0 })
    expect(restored.body.data.reports.every((r: { reviewed: boolean }) => r.reviewed)).toBe(true)
    expect(restored.body.data.reports).toHaveLength(4)

    // the same accounts again: each answered as before, nothing counts, the post stays
    for (const s of [...first, unweighted]) expect(await report(s, 'post', p.id, 'fake')).toBe('visible')
    expect(await statusOf(p.id)).toBe('visible')
    expect(await queueItem('post', p.id, 'reported')).toBeUndefined()
    // their reports stay as given (reason, reviewed): a second report is the same report
    const kept = await t.db.selectFrom('show_reports').select(['reason', 'reviewed_at']).where('target', '=', 'post').where('target_id', '=', p.id).execute()
    expect(kept).toHaveLength(4)
    expect(kept.every(r => r.reason === 'spam' && r.reviewed_at !== null)).toBe(true)

    // fresh accounts made now still count for nothing
    for (let i = 0; i < 3; i++) expect(await report(await fresh(), 'post', p.id)).toBe('visible')
    // new reporters with a stake: the third hides it
    const second = [await staked(), await staked(), await staked()]
    expect(await report(second[0], 'post', p.id)).toBe('visible')
    expect(await report(second[1], 'post', p.id)).toBe('visible')
    expect(await report(second[2], 'post', p.id)).toBe('reported')
    const again = await queueItem('post', p.id, 'reported')
    expect(again).toMatchObject({ reportCount: 6, weightedCount: 3 })
    expect(again!.reports.filter(r => !r.reviewed).map(r => r.weighted)).toEqual([true, true, true, false, false, false])
    expect(again!.reports.filter(r => r.reviewed)).toHaveLength(4)
  })

  test('a comment: reports without a stake hide nothing; after a restore only new reporters with a stake count', async () => {
    const author = await shopperWithPrizes(1)
    const p = (await call(author.s, '/api/show/create', { prizeIds: author.prizeIds, images: [], text: '晒一下' })).body.data
    const commenter = await fresh()
    const c = (await call(commenter, '/api/show/comment', { postId: p.id, text: '好看' })).body.data
    for (let i = 0; i < 3; i++) expect(await report(await fresh(), 'comment', c.id)).toBe('visible')
    const reporters = [await staked(), await staked(), await staked()]
    for (const [i, s] of reporters.entries()) expect(await report(s, 'comment', c.id)).toBe(i === 2 ? 'reported' : 'visible')
    expect((await call(operator, '/api/operator/show/moderate', { target: 'comment', id: c.id, action: 'restore' })).body.data.status).toBe('visible')
    for (const s of reporters) expect(await report(s, 'comment', c.id)).toBe('visible')
    const comment = await t.db.selectFrom('show_comments').select(['status', 'report_count']).where('id', '=', c.id).executeTakeFirstOrThrow()
    expect(comment).toEqual({ status: 'visible', report_count: 0 })
  })

  test('the stake is weighed when reporting: an account that buys later counts only from its next report of something else', async () => {
    const author = await shopperWithPrizes(1)
    const p = (await call(author.s, '/api/show/create', { prizeIds: author.prizeIds, images: [], text: '开箱' })).body.data
    const late = await fresh()
    expect(await report(late, 'post', p.id)).toBe('visible')
    // it buys a box now; its report given before stays without weight
    await topUp(t.app, late, 1000)
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, seriesId, late.token)
    expect((await buy(t.app, late, { caseId, slots: [1] })).body.code).toBe(200)
    expect(await report(late, 'post', p.id)).toBe('visible')
    const row = await t.db.selectFrom('show_reports').select('weighted').where('target_id', '=', p.id).where('target', '=', 'post').where('user_id', '=', late.id).executeTakeFirstOrThrow()
    expect(Number(row.weighted)).toBe(0)
    const other = (await call(author.s, '/api/show/create', { prizeIds: author.prizeIds, images: [], text: '再开箱' })).body.data
    await report(late, 'post', other.id)
    const weighted = await t.db.selectFrom('show_reports').select('weighted').where('target_id', '=', other.id).where('target', '=', 'post').where('user_id', '=', late.id).executeTakeFirstOrThrow()
    expect(Number(weighted.weighted)).toBe(1)
  })

  test('a deleted reporter: its report goes; what three weighted reports hid shows again when two remain, whatever the unweighted ones', async () => {
    const author = await shopperWithPrizes(1)
    const p = (await call(author.s, '/api/show/create', { prizeIds: author.prizeIds, images: [], text: '好运' })).body.data
    for (let i = 0; i < 3; i++) await report(await fresh(), 'post', p.id)
    const weighted = [await staked(), await staked(), await staked()]
    for (const s of weighted) await report(s, 'post', p.id)
    expect(await statusOf(p.id)).toBe('reported')
    await deleteAccount(t.db, t.clock.now, dialect, weighted[0].id, true)
    expect(await t.db.selectFrom('show_posts').select(['status', 'report_count']).where('id', '=', p.id).executeTakeFirstOrThrow()).toEqual({ status: 'visible', report_count: 5 })
    expect((await queueItem('post', p.id, 'reported'))!.weightedCount).toBe(2)
  })
})
