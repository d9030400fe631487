/**
 * The entry loader that scripts/prerender.js writes into index.html (paintFirst): the entry's style
 * sheet inlined, its scripts added in order after the first paint, and with them the chunks of the
 * page the prerendered view shows (scripts run async, style sheets only preloaded, so that webpack
 * still adds each sheet itself and waits for it before the page renders).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { paintFirst } = require('../../scripts/prerender.js') as { paintFirst: (html: string, dir: string, viewFiles?: Record<string, string[]>) => string }

const ENTRY_HTML = '<html><head><link href="/css/app.1.css" rel="stylesheet"></head><body><div id="app"></div>' +
  '<script defer="defer" src="/js/runtime.1.js"></script><script defer="defer" src="/js/app.1.js"></script></body></html>'

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paint-first-'))
  fs.mkdirSync(path.join(dir, 'css'))
  fs.writeFileSync(path.join(dir, 'css', 'app.1.css'), '.a{color:red}')
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Runs the loader in this page (jsdom) showing `view`, as a hidden tab does: at once. */
function load (html: string, view: string | null): Array<{ tag: string, rel?: string, as?: string, href?: string, src?: string, async?: boolean }> {
  const loader = /<script data-entry-loader>([\s\S]*?)<\/script>/.exec(html)?.[1]
  expect(loader).toBeTruthy()
  document.head.innerHTML = ''
  if (view) document.documentElement.setAttribute('data-prerender', view)
  else document.documentElement.removeAttribute('data-prerender')
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
  // eslint-disable-next-line no-new-func
  new Function(loader!)()
  return [...document.head.children].map(e => e.tagName === 'SCRIPT'
    ? { tag: 'script', src: e.getAttribute('src')!, async: (e as HTMLScriptElement).async }
    : { tag: 'link', rel: e.getAttribute('rel')!, as: e.getAttribute('as')!, href: e.getAttribute('href')! })
}

test('the entry scripts come in order; the view\'s page chunks come with them, without the entry\'s own files', () => {
  const html = paintFirst(ENTRY_HTML, dir, {
    'home-en': ['/css/app.1.css', '/js/runtime.1.js', '/css/common.2.css', '/js/common.2.js', '/css/home.3.css', '/js/home.3.js'],
    'login-en': ['/js/app.1.js']
  })
  expect(html).toContain('<style data-entry-css="/css/app.1.css">.a{color:red}</style>')
  expect(html).not.toContain('<script defer')
  expect(load(html, 'home-en')).toEqual([
    { tag: 'script', src: '/js/runtime.1.js', async: false },
    { tag: 'script', src: '/js/app.1.js', async: false },
    { tag: 'link', rel: 'preload', as: 'style', href: '/css/common.2.css' },
    { tag: 'script', src: '/js/common.2.js', async: true },
    { tag: 'link', rel: 'preload', as: 'style', href: '/css/home.3.css' },
    { tag: 'script', src: '/js/home.3.js', async: true }
  ])
})

test('a view with nothing of its own, an unknown view, or none (a stored session\'s splash) gets the entry alone', () => {
  const html = paintFirst(ENTRY_HTML, dir, { 'home-en': ['/js/home.3.js'], 'login-en': ['/js/app.1.js'] })
  const entryOnly = [
    { tag: 'script', src: '/js/runtime.1.js', async: false },
    { tag: 'script', src: '/js/app.1.js', async: false }
  ]
  expect(load(html, 'login-en')).toEqual(entryOnly)
  expect(load(html, 'none')).toEqual(entryOnly)
  expect(load(html, null)).toEqual(entryOnly)
  expect(load(html, 'home-en')).toEqual([...entryOnly, { tag: 'script', src: '/js/home.3.js', async: true }])
})

test('a small SVG icon is written into its link as a data URI; the ICO link and a large SVG stay links', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#ff3d77"/></svg>'
  fs.writeFileSync(path.join(dir, 'favicon.svg'), svg + '\n')
  fs.writeFileSync(path.join(dir, 'big.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(600)}</svg>`)
  const head = '<link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="icon" href="/favicon.ico" sizes="32x32"><link rel="icon" href="/big.svg" type="image/svg+xml">'
  const html = paintFirst(ENTRY_HTML.replace('<head>', `<head>${head}`), dir)
  const uri = /<link rel="icon" href="data:image\/svg\+xml,([^"]*)" type="image\/svg\+xml">/.exec(html)
  expect(uri).not.toBeNull()
  expect(decodeURIComponent(uri![1])).toBe(svg)
  expect(uri![1]).not.toMatch(/[<>"#]/)
  expect(html).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32">')
  expect(html).toContain('<link rel="icon" href="/big.svg" type="image/svg+xml">')
})
