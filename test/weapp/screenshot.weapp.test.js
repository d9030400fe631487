/**
 * Pictures of the mini-program build for people (README, docs/weapp.md), not a check of WeChat's
 * renderer: the compiled login and home pages run in the simulator against the real server, and each
 * page's element tree is written out as an HTML file with the build's own WXSS (scripts/weapp-screenshot.js
 * then photographs it in Chromium at 375 px). The simulator's elements keep only class and style, so each
 * element's other attributes (an image's src and mode, an input's placeholder) are read back from the
 * page data through the template base.wxml renders it with, as WeChat would bind them.
 * Written to test-results/weapp/<page>.html; the test checks that each page has its content and that
 * every picture it shows was found.
 */
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')
const { WEAPP_TEST_API_ORIGIN } = require('./origin')

const h = createHarness()
const root = path.resolve(__dirname, '../..')
const OUT = path.join(root, 'test-results', 'weapp')
let shop
let token

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-shot-' })
  const api = (route, body) => callApi(h.state.apiOrigin, route, body, token)
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
  // a whole case bought (a quarter of a case is rare), so the live feed on home, which shows rare and hidden draws, has rows
  const me = await api('/getUserInfo')
  await api('/api/ageVerify', { birthDate: '1990-01-01' }).catch(() => undefined)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: me.id })
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: me.id, opId, amountCents: 100000, channel: 'sandbox' })
  await api('/api/sandboxPay', { opId })
  const series = (await api('/api/seriesList', { page: 1, size: 10 })).list
  const view = await api('/api/caseCurrent', { seriesId: series[0].id })
  await api('/api/casePurchase', { caseId: view.caseId, slots: view.slots.filter(x => !x.sold).map(x => x.slot), acknowledged: true, idempotencyKey: `shot-${Date.now()}` })
  h.boot()
  fs.mkdirSync(OUT, { recursive: true })
}, 90000)

afterAll(async () => {
  await shop?.stop()
})

/** The attribute each short name stands for, per template (tmpl_0_<nn>) of base.wxml. */
function templateBindings () {
  const wxml = fs.readFileSync(path.join(h.DIST, 'base.wxml'), 'utf8')
  const out = new Map()
  // (a focusable element's own template only chooses between its _focus and _blur templates)
  for (const m of wxml.matchAll(/<template name="tmpl_0_(\w+)">\s*<(?!template\b)([a-z-]+) ([^>]*)>/g)) {
    const attrs = {}
    for (const b of m[3].matchAll(/([a-z-]+)="\{\{(?:xs\.b\()?i\.(\w+)/g)) attrs[b[2]] = b[1]
    out.set(m[1], attrs)
  }
  return out
}

/** The build's WXSS for a page, imports inlined, rpx as px on a 375 px screen (750 rpx wide). */
function styles (page) {
  const read = file => fs.readFileSync(file, 'utf8').replace(/@import\s+"([^"]+)";/g, (_, rel) => read(path.resolve(path.dirname(file), rel)))
  const css = read(path.join(h.DIST, 'app.wxss')) + read(path.join(h.DIST, `${page}.wxss`))
  return css.replace(/(-?[\d.]+)rpx/g, (_, n) => `${(Number(n) / 2).toFixed(2)}px`).replace(/\bpage\b(?=[\s,{])/g, 'body')
}

/** A GET of the local server (the simulator's environment has no fetch). */
function download (url) {
  return new Promise((resolve, reject) => {
    http.get(url, res => {
      const parts = []
      res.on('data', d => parts.push(d))
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(parts) }))
    }).on('error', reject)
  })
}

/** The page as HTML: simulator elements as plain ones, attributes from the page data, pictures inlined. */
async function pageHtml (page, route) {
  const bindings = templateBindings()
  const nodes = new Map()
  const walk = n => { if (!n || typeof n !== 'object') return; if (n.sid) nodes.set(n.sid, n); for (const c of n.cn ?? []) walk(c) }
  walk(page.instance.data.root)
  const prefix = `p-${route.replace(/\//g, '-')}--`
  const doc = page.dom.ownerDocument
  const clone = page.dom.cloneNode(true)
  const pictures = { shown: 0, missing: [] }
  for (const el of [...clone.querySelectorAll('[data-sid]')]) {
    const node = nodes.get(el.getAttribute('data-sid'))
    const attrs = {}
    // a focusable element (input) has two templates, by focus; their attributes are the same
    const bound = node ? bindings.get(String(node.nn)) ?? bindings.get(`${node.nn}_blur`) ?? {} : {}
    if (node) for (const [key, name] of Object.entries(bound)) if (node[key] !== undefined && node[key] !== '') attrs[name] = node[key]
    el.setAttribute('class', (el.getAttribute('class') ?? '').split(/\s+/).map(c => c.startsWith(prefix) ? c.slice(prefix.length) : c).join(' '))
    const tag = el.tagName.toLowerCase()
    if (tag === 'wx-image') {
      const img = doc.createElement('img')
      img.setAttribute('class', el.getAttribute('class'))
      img.setAttribute('style', `${el.getAttribute('style') ?? ''};object-fit:${{ aspectFit: 'contain', aspectFill: 'cover' }[attrs.mode] ?? 'fill'}`)
      const src = String(attrs.src ?? '')
      if (src.startsWith(WEAPP_TEST_API_ORIGIN)) {
        const res = await download(new URL(src.slice(WEAPP_TEST_API_ORIGIN.length), h.state.apiOrigin))
        if (res.status === 200) {
          img.setAttribute('src', `data:${res.type};base64,${res.body.toString('base64')}`)
          pictures.shown++
        } else pictures.missing.push(src)
      } else if (src) pictures.missing.push(src)
      el.replaceWith(img)
    } else if (tag === 'wx-input') {
      const input = doc.createElement('input')
      input.setAttribute('class', el.getAttribute('class'))
      if (attrs.placeholder) input.setAttribute('placeholder', attrs.placeholder)
      if (attrs.password) input.setAttribute('type', 'password')
      el.replaceWith(input)
    }
  }
  const css = styles(route)
  // WeChat's own look of its elements, in brief: views are blocks, text is inline, inputs are bare
  const base = 'body{margin:0;font-family:-apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;font-size:16px;background:#f8f8f8}' +
    'wx-view,wx-scroll-view,wx-button{display:block}wx-text{display:inline}wx-button{text-align:center}' +
    'input{border:0;outline:0;background:transparent;font:inherit;padding:0;width:100%}img{display:block}'
  return { html: `<!doctype html><html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=375"><style>${base}${css}</style></head><body>${clone.outerHTML}</body></html>`, pictures }
}

test('login and home as HTML with the build\'s WXSS', async () => {
  const login = h.loadPage('pages/login/index')
  await waitFor(() => expect(login.dom.textContent).toContain('密码登录'))
  const a = await pageHtml(login, 'pages/login/index')
  expect(a.html).toContain('placeholder=')
  fs.writeFileSync(path.join(OUT, 'login.html'), a.html)

  h.state.storage.h5_token = token
  const home = h.loadPage('pagesA/home/index')
  await waitFor(() => expect(home.querySelectorAll('.series-card').length).toBeGreaterThan(0), 10000)
  await waitFor(() => expect(home.querySelectorAll('.feed-row').length).toBeGreaterThan(0), 10000)
  const b = await pageHtml(home, 'pagesA/home/index')
  expect(b.pictures.missing).toEqual([])
  expect(b.pictures.shown).toBeGreaterThan(0)
  fs.writeFileSync(path.join(OUT, 'home.html'), b.html)
})

test('the profile\'s contact panel: WeChat customer service first (issue 48)', async () => {
  h.state.storage.h5_token = token
  const profile = h.loadPage('pagesA/profile/index', { contact: '1' })
  await waitFor(() => expect(profile.querySelector('.wechat-contact__button')).toBeTruthy(), 10000)
  await waitFor(() => expect(profile.querySelector('.contact-panel')).toBeTruthy(), 10000)
  const c = await pageHtml(profile, 'pagesA/profile/index')
  expect(c.html).toContain('联系微信客服')
  fs.writeFileSync(path.join(OUT, 'profile-contact.html'), c.html)
})

test('a 一番赏 series\' board (issue 51)', async () => {
  const api = (route, body) => callApi(h.state.apiOrigin, route, body, token)
  const kuji = (await api('/api/seriesList', { page: 1, size: 50 })).list.find(s => s.kind === 'kuji')
  const detail = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(kuji.id) })
  await waitFor(() => expect(detail.querySelectorAll('.kuji-ticket').length).toBeGreaterThan(0), 10000)
  const d = await pageHtml(detail, 'pagesA/blind_box_detail/index')
  expect(d.pictures.missing).toEqual([])
  expect(d.html).toContain('最终赏')
  fs.writeFileSync(path.join(OUT, 'kuji-board.html'), d.html)
})
