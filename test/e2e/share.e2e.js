/**
 * Sharing a series from H5 (issue 24 item 4): outside WeChat, "在微信中打开" asks the shop for a WeChat
 * URL link of the page (POST /get_mp_url, made by the local WeChat's /wxa/generate_urllink with the
 * page's mini-program path and query) and goes to it; "分享" makes another and, with no share sheet in
 * this browser, copies it. Both languages.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')

async function run ({ base, fakes }) {
  const series = await (await fetch(`${base}/dev-api/api/seriesList`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: 1, size: 10 }) })).json()
  const seriesId = series.data.list[0].id
  for (const locale of ['zh-CN', 'en-US']) {
    const zh = locale === 'zh-CN'
    const { page, errors, close, shot } = await openPhonePage({ locale })
    try {
      await page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${seriesId}`, { waitUntil: 'networkidle' })
      await page.locator('.share-bar-open').waitFor()
      assert.equal(await page.locator('.share-bar-open').innerText(), zh ? '在微信中打开' : 'Open in WeChat')
      await shot(`share-bar-${zh ? 'zh' : 'en'}.png`)

      // "share": a link of the mini-program's page, copied (this browser has no share sheet)
      const before = fakes.wechat.links.length
      await page.locator('.share-bar-share').click()
      await page.locator('.taro__toast', { hasText: zh ? '链接已复制' : 'Link copied' }).first().waitFor({ state: 'attached' })
      assert.equal(fakes.wechat.links.length, before + 1)
      assert.deepEqual(fakes.wechat.links.at(-1), { url: fakes.wechat.links.at(-1).url, path: 'pagesA/blind_box_detail/index', query: `seriesId=${seriesId}`, days: 30 })

      // "open in WeChat": to WeChat's URL link of this page
      await page.route('https://wxaurl.cn/**', r => r.fulfill({ contentType: 'text/html', body: '<html><body>wechat</body></html>' }))
      await page.locator('.share-bar-open').click()
      await page.waitForURL(/^https:\/\/wxaurl\.cn\//)
      assert.equal(page.url(), fakes.wechat.links.at(-1).url)
      assert.equal(fakes.wechat.links.at(-1).query, `seriesId=${seriesId}`)
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  }
}

module.exports = { name: 'share: open in WeChat and share a series', run }
