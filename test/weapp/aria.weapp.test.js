/**
 * WeChat's accessibility attributes reach the compiled mini-program (config/aria-plugin.js): Taro's
 * templates drop any attribute they do not list, and before the plugin they listed no aria-*, so every
 * accessible name and role set in src/ was lost on WeChat
 * (https://developers.weixin.qq.com/miniprogram/dev/framework/ability/accessibility.html).
 *  - every aria-* attribute src/ sets is in the plugin's list, and each View, Text and Image template
 *    of base.wxml passes each of them on;
 *  - rendered against the real server: the language switch is a button, the home banner a link, a
 *    series cover is hidden from screen readers, and the zoom buttons of a design's preview are named.
 */
const fs = require('node:fs')
const path = require('node:path')
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
const root = path.resolve(__dirname, '../..')
let shop
let token
let series

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-aria-' })
  token = (await callApi(h.state.apiOrigin, '/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
  series = (await callApi(h.state.apiOrigin, '/api/seriesList', { page: 1, size: 10 })).list
  h.boot()
}, 90000)

afterAll(async () => {
  await shop?.stop()
})

/** Every source file under src/. */
function sources (dir = path.join(root, 'src')) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [])
}

test('every aria-* attribute src/ sets is passed on by the View, Text and Image templates', () => {
  const used = new Set(sources().flatMap(f => [...fs.readFileSync(f, 'utf8').matchAll(/['"]?(aria-[a-z]+)['"]?\s*[:=]/g)].map(m => m[1])))
  expect([...used].sort()).toEqual(expect.arrayContaining(['aria-hidden', 'aria-label', 'aria-role']))
  // the lists the build plugin and the runtime share hold every one of them (an Image its name, role and hiding)
  const listed = require('../../src/utils/ariaAttributes.json')
  for (const attr of used) expect(listed.View).toContain(attr)
  expect(listed.Text).toEqual(listed.View)
  expect(listed.Image).toEqual(expect.arrayContaining(['aria-hidden', 'aria-label', 'aria-role']))
  const wxml = fs.readFileSync(path.join(h.DIST, 'base.wxml'), 'utf8')
  const templates = [...wxml.matchAll(/<(view|text|image) ([^>]*)>/g)]
  for (const tag of ['view', 'text', 'image']) {
    const ofTag = templates.filter(m => m[1] === tag && /hover-class|selectable|src=/.test(m[2]))
    expect(ofTag.length).toBeGreaterThan(0)
    const attrs = listed[{ view: 'View', text: 'Text', image: 'Image' }[tag]]
    for (const m of ofTag) for (const attr of attrs) expect(m[2]).toMatch(new RegExp(`${attr}="\\{\\{i\\.\\w+\\}\\}"`))
  }
})

/**
 * What WeChat would render as an attribute of the element with this class: the simulator's own view
 * records only class, style and data-*, so this reads the page's data (Taro's hydrated node) and the
 * template it is rendered by in base.wxml, and answers the value bound to `attr` there.
 */
function renderedAttribute (page, className, attr) {
  const wxml = fs.readFileSync(path.join(h.DIST, 'base.wxml'), 'utf8')
  const find = node => {
    if (!node || typeof node !== 'object') return null
    if (typeof node.cl === 'string' && node.cl.split(/\s+/).some(c => c === className || c.endsWith(`--${className}`))) return node
    for (const child of node.cn ?? []) { const hit = find(child); if (hit) return hit }
    return null
  }
  const node = find(page.instance.data.root)
  if (!node) throw new Error(`no .${className} in the page's data`)
  const template = new RegExp(`<template name="tmpl_0_${node.nn}">\\s*<[a-z-]+ ([^>]*)>`).exec(wxml)
  if (!template) throw new Error(`no template tmpl_0_${node.nn} for .${className}`)
  const bound = new RegExp(`${attr}="\\{\\{i\\.(\\w+)\\}\\}"`).exec(template[1])
  if (!bound) return undefined
  return node[bound[1]]
}

test('login: the language switch is a button', async () => {
  const page = h.loadPage('pages/login/index')
  await waitFor(() => expect(page.querySelector('.lang-switch')).toBeTruthy())
  expect(renderedAttribute(page, 'lang-switch', 'aria-role')).toBe('button')
})

test('home: the banner is a link, a series cover is hidden from screen readers', async () => {
  h.state.storage.h5_token = token
  const page = h.loadPage('pagesA/home/index')
  await waitFor(() => expect(page.querySelectorAll('.series-card').length).toBe(series.length), 10000)
  expect(renderedAttribute(page, 'home-banner', 'aria-role')).toBe('link')
  expect(renderedAttribute(page, 'series-card__img', 'aria-hidden')).toBe(true)
  expect(renderedAttribute(page, 'home-banner__art', 'aria-hidden')).toBe(true)
})

test("a design's preview: the zoom buttons have names", async () => {
  h.state.storage.h5_token = token
  const page = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(series[0].id) })
  await waitFor(() => expect(page.querySelector('.design')).toBeTruthy(), 10000)
  page.querySelector('.design').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.design-preview .zoom-in')).toBeTruthy())
  expect(renderedAttribute(page, 'zoom-in', 'aria-label')).toBe('放大')
  expect(renderedAttribute(page, 'zoom-out', 'aria-label')).toBe('缩小')
  expect(renderedAttribute(page, 'zoom-in', 'aria-role')).toBe('button')
})
