/**
 * The player show (issue 27), end to end in Chromium at 375 px: a shopper (in Chinese) opens the prize
 * page's "share to the player show", picks a second prize, uploads a photo and posts; another shopper (in
 * English, nothing bought) likes it, comments and reports it; the author replies; three reports of
 * shoppers who bought hide the post (the fan's counts for nothing; a visitor is told there is no such
 * post, the author sees why); the operator sees who reported what, and whether it counts, in the
 * editor's Moderation tab, hides it with a reason, which the author reads on the post, then restores it. Screenshots of the
 * feed, the form, the post and the tab in zh and en; nothing wider than the phone; no page errors.
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { openPhonePage, SHOTS, passwordLogin } = require('./browser')
const { api } = require('./api')
const { makePng } = require('../support/png')

/** The elements that stick out of the phone's width (none may, outside a horizontal scroller), by class. */
const overflow = page => page.evaluate(() => {
  const width = document.documentElement.clientWidth
  const out = []
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect()
    // inside a horizontal scroller (the editor's tabs, the series chips) is where it should be
    let scroller = el.parentElement
    while (scroller && !/auto|scroll/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement
    if (r.width && !scroller && (r.right > width + 1 || r.left < -1)) out.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 2).join('.')} ${Math.round(r.left)}..${Math.round(r.right)}`)
  }
  return out.slice(0, 8)
})

let n = 0
/** A new shopper with a password, an age on record and (if asked) prizes of the first series. */
async function shopper (base, prizes = 0) {
  const userName = `show${Date.now().toString(36)}${++n}`
  const password = 'show-pass-1'
  const { token, user } = await api(base, '/login/register?table=user', { user_name: userName, password })
  if (!prizes) return { userName, password, token, id: user.id, ids: [] }
  await api(base, '/api/ageVerify', { birthDate: '1995-06-01' }, token)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: user.id }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId: user.id, opId, amountCents: 50000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  const seriesId = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list[0].id
  const view = await api(base, '/api/caseCurrent', { seriesId }, token)
  const slots = view.slots.filter(s => !s.sold).slice(0, prizes).map(s => s.slot)
  const bought = await api(base, '/api/casePurchase', { caseId: view.caseId, slots, acknowledged: true, idempotencyKey: `show-${Date.now().toString(36)}-${n}` }, token)
  return { userName, password, token, id: user.id, ids: bought.prizes.map(p => p.prizeId), seriesId }
}

async function run ({ base }) {
  const pages = []
  const open = async (locale) => { const p = await openPhonePage({ locale }); pages.push(p); return p }
  try {
    const author = await shopper(base, 2)
    const fan = await shopper(base)

    // ---- the author posts, in Chinese, from the prize page ----
    const a = await open('zh-CN')
    await passwordLogin(a, base, author.userName, author.password)
    await a.page.goto(`${base}/pagesA/prize_detail/index?prizeId=${author.ids[0]}`, { waitUntil: 'networkidle' })
    await a.page.locator('.prize-to-show').click()
    await a.page.locator('.show-compose').waitFor()
    await a.page.locator(`.show-pick-${author.ids[0]}.show-pick--on`).waitFor()
    await a.page.locator(`.show-pick-${author.ids[1]}`).click()
    await a.page.locator('.show-compose__input').setInputFiles({ name: 'pull.png', mimeType: 'image/png', buffer: makePng(40, 30, [200, 60, 90]) })
    await a.page.locator('.show-compose__photo').waitFor()
    const words = '第一次就抽到了两款！开心'
    await a.page.locator('.show-compose__text textarea').fill(words)
    await a.shot('show-compose-zh.png')
    assert.deepEqual(await overflow(a.page), [])
    await a.page.locator('.show-compose-post').click()
    await a.page.waitForURL(/\/pagesA\/show_post\/index\?id=\d+/)
    const postId = Number(new URL(a.page.url()).searchParams.get('id'))
    await a.page.locator('.show-post-page .show-card__text', { hasText: words }).waitFor()
    await a.page.locator('.show-proof').nth(1).waitFor()
    assert.equal(await a.page.locator('.show-proof').count(), 2)
    await a.page.locator('.show-post-page .show-card__photo').waitFor()
    assert.match(await a.page.locator('.show-proof__mono').first().innerText(), /^[0-9a-f]{64}$/)
    await a.shot('show-post-zh.png')
    assert.deepEqual(await overflow(a.page), [])

    // ---- the feed, in both languages ----
    await a.page.goto(`${base}/pagesA/show/index`, { waitUntil: 'networkidle' })
    await a.page.locator(`.show-card-${postId}`).waitFor()
    await a.shot('show-feed-zh.png')
    assert.deepEqual(await overflow(a.page), [])

    // ---- another shopper, in English: like (twice is once), comment, report ----
    const f = await open('en-US')
    await passwordLogin(f, base, fan.userName, fan.password)
    await f.page.goto(`${base}/pagesA/show/index?sort=popular`, { waitUntil: 'networkidle' })
    await f.page.locator(`.show-card-${postId}`).waitFor()
    await f.shot('show-feed-en.png')
    assert.deepEqual(await overflow(f.page), [])
    await f.page.locator(`.show-card-${postId} .show-card__body`).click()
    await f.page.waitForURL(new RegExp(`show_post/index\\?id=${postId}`))
    const likeButton = f.page.locator('.show-post-page .show-like')
    await likeButton.click()
    await f.page.locator('.show-post-page .show-like--on', { hasText: '1 like' }).waitFor()
    assert.equal(await likeButton.getAttribute('aria-label'), 'Unlike · 1 like')
    await likeButton.click()
    await f.page.locator('.show-post-page .show-like:not(.show-like--on)', { hasText: '0 likes' }).waitFor()
    await likeButton.click()
    await f.page.locator('.show-post-page .show-like--on', { hasText: '1 like' }).waitFor()
    await f.page.locator('.show-composer__text textarea').fill('Congratulations, lovely pull!')
    await f.page.locator('.show-composer-send').click()
    const comment = f.page.locator('.show-comment__text', { hasText: 'Congratulations, lovely pull!' })
    await comment.waitFor()
    await f.page.locator('.show-post-report').click()
    await f.page.locator('.show-reason-fake').click()
    await f.shot('show-report-en.png')
    await f.page.locator('.show-report-send').click()
    await f.page.locator('.show-report').waitFor({ state: 'detached' })
    await f.page.locator('.show-post-report').scrollIntoViewIfNeeded()
    await f.shot('show-post-en.png')
    assert.deepEqual(await overflow(f.page), [])

    // ---- the author replies ----
    await a.page.goto(`${base}/pagesA/show_post/index?id=${postId}`, { waitUntil: 'networkidle' })
    await a.page.locator('.show-reply').first().click()
    await a.page.locator('.show-composer__to').waitFor()
    await a.page.locator('.show-composer__text textarea').fill('谢谢！')
    await a.page.locator('.show-composer-send').click()
    await a.page.locator('.show-comment--reply .show-comment__text', { hasText: '谢谢！' }).waitFor()
    // a reply offers no reply of its own (one level deep)
    assert.equal(await a.page.locator('.show-comment--reply .show-reply').count(), 0)

    // ---- the fan bought nothing: its report hides nothing; three of shoppers who bought hide it until reviewed ----
    assert.equal((await api(base, '/api/show/detail', { postId })).status, 'visible')
    const staked = []
    for (let i = 0; i < 3; i++) {
      const r = await shopper(base, 1)
      staked.push(r)
      const { status } = await api(base, '/api/show/report', { target: 'post', id: postId, reason: 'spam' }, r.token)
      assert.equal(status, i === 2 ? 'reported' : 'visible')
    }
    const visitor = await open('en-US')
    await visitor.page.goto(`${base}/pagesA/show_post/index?id=${postId}`, { waitUntil: 'networkidle' })
    await visitor.page.locator('.empty-state__text', { hasText: 'No such post' }).waitFor()
    await a.page.reload({ waitUntil: 'networkidle' })
    await a.page.locator('.show-post-notice').waitFor()

    // ---- the operator hides it with a reason, the author reads it, then the operator restores it ----
    const op = await open('en-US')
    await passwordLogin(op, base, 'operator', 'operator123')
    await op.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await op.page.locator('.editor-tab-moderation').click()
    const item = op.page.locator(`.moderation-post-${postId}`)
    await item.waitFor()
    assert.match(await item.innerText(), /4 reports/)
    // who reported what: the fan's report (nothing bought) does not count, the three others do
    await item.locator(`.moderation-report-${fan.id} .moderation-report__tag--nostake`, { hasText: 'Does not count: no purchase' }).waitFor()
    for (const r of staked) await item.locator(`.moderation-report-${r.id} .moderation-report__tag--counts`, { hasText: 'Counts' }).waitFor()
    assert.match(await item.locator('.moderation-reports__counting').innerText(), /3 count toward hiding/)
    await item.locator('.moderation-hide').click()
    await op.page.locator('.taro__toast', { hasText: 'Write why it is hidden' }).first().waitFor({ state: 'attached' })
    await item.locator('.moderation-item__input textarea').fill('The photo is not the author\'s own')
    await op.shot('show-moderation-en.png')
    assert.deepEqual(await overflow(op.page), [])
    await item.locator('.moderation-hide').click()
    await item.locator('.moderation-item__status--hidden').waitFor()
    await a.page.reload({ waitUntil: 'networkidle' })
    await a.page.locator('.show-post-notice', { hasText: 'The photo is not the author\'s own' }).waitFor()
    await a.shot('show-post-hidden-zh.png')
    await item.locator('.moderation-restore').click()
    await item.locator('.moderation-item__status--visible').waitFor()
    // restored: the reports stay listed as dealt with, and the same reporters cannot hide it again
    await item.locator(`.moderation-report-${staked[0].id} .moderation-report__tag--reviewed`).waitFor()
    for (const r of staked) assert.equal((await api(base, '/api/show/report', { target: 'post', id: postId, reason: 'fake' }, r.token)).status, 'visible')
    await visitor.page.reload({ waitUntil: 'networkidle' })
    await visitor.page.locator('.show-post-page .show-card__text', { hasText: words }).waitFor()

    // one report of the fan's comment: the Chinese tab lists it under "reported"
    const reporter = await shopper(base)
    const [fanComment] = (await api(base, '/api/show/comments', { postId, page: 1, size: 10 }, reporter.token)).list
    await api(base, '/api/show/report', { target: 'comment', id: fanComment.id, reason: 'offensive', note: '语气不太友好' }, reporter.token)
    const opZh = await open('zh-CN')
    await passwordLogin(opZh, base, 'operator', 'operator123')
    await opZh.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await opZh.page.locator('.editor-tab-moderation').click()
    await opZh.page.locator(`.moderation-comment-${fanComment.id}`, { hasText: '语气不太友好' }).waitFor()
    await opZh.page.locator(`.moderation-comment-${fanComment.id} .moderation-report-${reporter.id}`, { hasText: '不计入：该账号没有购买记录' }).waitFor()
    await opZh.shot('show-moderation-zh.png')
    assert.deepEqual(await overflow(opZh.page), [])

    // the series page shows its best posts
    await visitor.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${author.seriesId}`, { waitUntil: 'networkidle' })
    await visitor.page.locator(`.detail-best .show-card-${postId}`).waitFor()
    await visitor.page.locator('.detail-best').scrollIntoViewIfNeeded()
    await visitor.shot('show-series-best-en.png')
    assert.deepEqual(await overflow(visitor.page), [])

    for (const p of pages) assert.deepEqual(p.errors, [])
  } catch (e) {
    for (const [i, p] of pages.entries()) await p.page.screenshot({ path: path.join(SHOTS, `FAILED-show-${i}.png`) }).catch(() => undefined)
    console.error('page errors:', pages.map(p => p.errors))
    throw e
  } finally {
    for (const p of pages) await p.close()
  }
}

module.exports = { name: 'player show: post, like, comment, report, hide and restore', run }
