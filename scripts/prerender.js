#!/usr/bin/env node
/**
 * Prerenders the H5 entry HTML: the login page and the home page's loading state (its skeleton), in zh
 * and en, are rendered by the built app itself in headless Chromium and written into index.html, so a
 * phone shows them before any JavaScript has arrived. The app then takes over without a flicker.
 *
 * How a snapshot is taken: dist/h5 is served on 127.0.0.1 with every API call held unanswered (the
 * pages stay in their first state: the login form before the server's login settings, home before its
 * series), each page is opened at 375x812 with the language stored as the shopper's choice, and once
 * it is on screen the visible DOM (Taro's navigation bar and the page) is copied with the CSS rules
 * that apply to it. In the copy every class and id gets the prefix `pr-`, and the rules are rewritten
 * the same way, so the copy and the app never match each other's selectors (nor
 * the tests'), and the copy looks exactly like the app's first render.
 *
 * Each page gets a document of its own, with only its views and the CSS they use: index.html carries
 * the login page (it is served at "/", at the login route, and for every route without a document of
 * its own) and pagesA/home/index.html home's skeleton (the shop's server sends it for
 * /pagesA/home/index: server/src/http/static.ts; scripts/serve-h5.js does the same). One document for
 * all four views made each phone download and parse the other page's copy too (about 40 KB of HTML
 * and CSS in the first task).
 *
 * In a document: <div id="prerender"> (fixed over the viewport) holds one view per language of its
 * page; a small script in <head> picks the view before the body is parsed (none on another route,
 * and none for a stored session on the login page, which goes on to home by itself; the language as
 * the app resolves it: stored choice, configured TARO_APP_LOCALE, browser language, English) and
 * shows it instead of the generic splash. Without JavaScript the page in the default language shows.
 * Rendering waits until the copy has been parsed to its end (<link rel=expect>), so the first frame
 * lays out and paints the whole view, never an empty or half-parsed page. When the app's
 * first page has rendered, src/components/PageShell removes the copy in the same frame (carrying over
 * whatever was typed into its fields). The entry's CSS is inlined and its scripts are fetched right
 * after the first paint (paintFirst), with the chunks of the view's page, so the first paint needs the
 * HTML alone.
 *
 * Runs as a webpack plugin of the production H5 build (config/index.ts) and by hand:
 *   node scripts/prerender.js [dir=dist/h5]
 * Without Chromium (CHROMIUM_PATH, /usr/bin/chromium) it warns and leaves the splash alone.
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

/** `document`: the file the page's views go into (its route plus .html, but the entry page's is index.html). */
const VIEWS = [
  { page: 'login', route: '/pages/login/index', ready: '.login-page .login-submit', document: 'index.html' },
  { page: 'home', route: '/pagesA/home/index', ready: '.home-page .series-skeleton', document: 'pagesA/home/index.html' }
]
const LOCALES = ['zh', 'en']
const FALLBACK_LOCALE = 'en'
/** Routes that show each page first (the entry page is served at "/" too). */
const ROUTES = { login: ['/', '/pages/login/index'], home: ['/pagesA/home/index'] }
const MARK_START = '<!--prerender-->'
const MARK_END = '<!--/prerender-->'
/** The id of the copy's last element: the first frame waits for it (headBlock). */
const COPY_END = 'prerender-end'

function chromiumPath () {
  return process.env.CHROMIUM_PATH || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(p => fs.existsSync(p))
}

/**
 * In the page: the visible DOM of the app (the navigation bar and #app), copied with prefixed classes,
 * and the CSS rules that match it, rewritten alike. Runs in the browser (no closures over Node).
 */
function snapshotInPage () {
  const keep = new Set([document.documentElement, document.body])
  const visible = el => getComputedStyle(el).display !== 'none'
  const roots = [...document.body.children].filter(el =>
    !['SCRIPT', 'STYLE', 'LINK', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName) && el.id !== 'splash' && el.id !== 'prerender' && visible(el))
  const prefixClasses = value => value.split(/\s+/).filter(Boolean).map(c => `pr-${c}`).join(' ')
  function copy (el) {
    keep.add(el)
    const c = el.cloneNode(false)
    if (c.id) c.id = `pr-${c.id}`
    const cls = c.getAttribute('class')
    if (cls) c.setAttribute('class', prefixClasses(cls))
    for (const a of ['autofocus', 'for', 'aria-labelledby', 'aria-describedby', 'aria-controls']) c.removeAttribute(a)
    for (const child of el.childNodes) {
      if (child.nodeType === Node.ELEMENT_NODE) {
        if (visible(child)) c.appendChild(copy(child))
      } else if (child.nodeType === Node.TEXT_NODE) {
        c.appendChild(child.cloneNode())
      }
    }
    return c
  }
  const html = roots.map(r => copy(r).outerHTML).join('')

  // selectors: classes and ids prefixed (the same specificity); for matching, states and pseudo-elements dropped
  const rewriteSelector = sel => sel
    .replace(/\.(-?[_a-zA-Z][\w-]*)/g, '.pr-$1')
    .replace(/#(-?[_a-zA-Z][\w-]*)/g, '#pr-$1')
  const matchable = sel => sel
    .replace(/::?(before|after|placeholder|selection|first-line|first-letter|marker|backdrop|-webkit-[\w-]+|-moz-[\w-]+|-ms-[\w-]+)(\([^)]*\))?/g, '')
    .replace(/:(hover|active|focus|focus-visible|focus-within|visited|link)\b/g, '')
  const matches = sel => {
    const test = matchable(sel).trim()
    try {
      for (const el of document.querySelectorAll(test || '*')) if (keep.has(el)) return true
      return false
    } catch {
      return true // a selector this test cannot read is kept
    }
  }
  const absoluteUrls = (text, base) => text.replace(/url\((['"]?)([^'")]+)\1\)/g, (m, q, u) =>
    /^(data:|#)/.test(u) ? m : `url("${new URL(u, base).pathname}")`)
  const out = []
  const keyframes = new Map()
  const fontFaces = []
  function walk (rules, base, into) {
    for (const rule of rules) {
      if (rule instanceof CSSStyleRule) {
        const kept = rule.selectorText.split(',').filter(s => matches(s))
        if (kept.length) into.push(`${kept.map(s => rewriteSelector(s.trim())).join(',')}{${absoluteUrls(rule.style.cssText, base)}}`)
      } else if (rule instanceof CSSMediaRule || (typeof CSSSupportsRule !== 'undefined' && rule instanceof CSSSupportsRule)) {
        const inner = []
        walk(rule.cssRules, base, inner)
        if (inner.length) into.push(`@${rule instanceof CSSMediaRule ? 'media' : 'supports'} ${rule.conditionText}{${inner.join('')}}`)
      } else if (rule instanceof CSSKeyframesRule) {
        keyframes.set(rule.name, rule.cssText)
      } else if (rule instanceof CSSFontFaceRule) {
        fontFaces.push([rule.style.getPropertyValue('font-family').replace(/["']/g, '').trim(), absoluteUrls(rule.cssText, base)])
      }
    }
  }
  for (const sheet of document.styleSheets) {
    let rules
    try { rules = sheet.cssRules } catch { continue }
    if (sheet.ownerNode && sheet.ownerNode.closest && sheet.ownerNode.closest('[data-prerender-css]')) continue
    walk(rules, sheet.href || location.href, out)
  }
  // animations and fonts only when a kept rule names them (Taro's weui icon font is 6 KB)
  const css = out.join('\n')
  for (const [name, text] of keyframes) if (css.includes(name)) out.push(text)
  const families = new Set((css.match(/font-family:[^;}]+/g) || []).flatMap(d => d.slice(12).split(',').map(f => f.replace(/["']/g, '').trim())))
  for (const [family, text] of fontFaces) if (families.has(family)) out.unshift(text)
  return { html, rules: out, locale: document.documentElement.lang || '' }
}

/** Merges rule lists in order: each rule once, where it first appears relative to the ones before it. */
function mergeRules (lists) {
  const merged = []
  const seen = new Set()
  for (const list of lists) {
    let at = 0
    for (const rule of list) {
      const i = merged.indexOf(rule)
      if (i >= 0) { at = i + 1; continue }
      if (seen.has(rule)) continue
      merged.splice(at, 0, rule)
      seen.add(rule)
      at++
    }
  }
  return merged
}

async function snapshot (ctxFactory, base, view, locale, stored) {
  const ctx = await ctxFactory(locale)
  try {
    const page = await ctx.newPage()
    // the API never answers: every page stays in its first state
    await page.route('**/dev-api/**', () => undefined)
    if (stored) await page.addInitScript(l => localStorage.setItem('app_locale', JSON.stringify({ data: l })), locale)
    const errors = []
    page.on('pageerror', e => errors.push(e.message))
    // the scripts and style sheets the route fetched to show its page: its chunks
    const files = []
    page.on('request', r => {
      const url = new URL(r.url())
      if (url.origin === base && /^\/(js|css)\/[^/]+\.(js|css)$/.test(url.pathname) && !files.includes(url.pathname)) files.push(url.pathname)
    })
    await page.goto(base + view.route, { waitUntil: 'domcontentloaded' })
    await page.locator(view.ready).first().waitFor({ timeout: 30000 })
    await page.waitForFunction(() => !document.getElementById('splash'))
    await page.evaluate(() => document.fonts.ready)
    await page.waitForTimeout(400) // Taro's page transition and the title settle
    if (errors.length) throw new Error(`${view.route}: ${errors.join('; ')}`)
    const snap = await page.evaluate(snapshotInPage)
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    return { ...snap, files }
  } finally {
    await ctx.close()
  }
}

/** The <head> part of a page's document: the rules that pick a view, the copy's CSS, and the script that picks. */
function headBlock (page, views, css, defaultLocale, configuredLocale) {
  const names = views.map(v => v.name)
  const show = names.map(n => `html[data-prerender="${n}"] #prerender,html[data-prerender="${n}"] [data-view="${n}"]`).join(',')
  const hideSplash = names.map(n => `html[data-prerender="${n}"] #splash`).join(',')
  const noScript = `html:not([data-prerender]) #prerender,html:not([data-prerender]) [data-view="${page}-${defaultLocale}"]`
  const pick = "!function(d){var v='none';try{" +
    `var p=location.pathname.replace(/\\/+$/,'')||'/',R=${JSON.stringify({ [page]: ROUTES[page] })},g=function(k){try{var o=JSON.parse(localStorage.getItem(k));return o&&o.data}catch(e){return ''}},` +
    "m=function(x){x=String(x||'').toLowerCase().split(/[-_]/)[0];return x==='zh'||x==='en'?x:''},page='';" +
    'for(var k in R)if(R[k].indexOf(p)>=0)page=k;' +
    "if(page==='login'&&g('h5_token'))page='';" +
    `var l=m(g('app_locale'))||m(${JSON.stringify(configuredLocale || '')})||m(navigator.language)||'${FALLBACK_LOCALE}';` +
    "if(page)v=page+'-'+l" +
    "}catch(e){}d.setAttribute('data-prerender',v)}(document.documentElement)"
  // no frame before the copy is whole: rendering waits for its last element (rel=expect, Chromium
  // 124+; other browsers ignore the link). Otherwise a parser that pauses after <head> (Chromium's
  // time budget is 10 ms) lets the browser lay out and paint the empty page first.
  return `${MARK_START}<link rel="expect" href="#${COPY_END}" blocking="render"><style data-prerender-css>` +
    '#prerender{display:none;position:fixed;top:0;right:0;bottom:0;left:0;z-index:1001;overflow:hidden;background:#F8F8F8}' +
    `.pr-view{display:none;height:100%}${show}{display:block}${hideSplash}{display:none}${noScript}{display:block}\n${css}</style>` +
    `<script>${pick}</script>${MARK_END}`
}

function bodyBlock (views) {
  return `${MARK_START}<div id="prerender">${views.map(v => `<div class="pr-view" data-view="${v.name}" lang="${v.locale === 'zh' ? 'zh-CN' : 'en'}">${v.html}</div>`).join('')}<i id="${COPY_END}" hidden></i></div>${MARK_END}`
}

/**
 * The entry's stylesheet inlined (one request less before the first paint), and the entry's scripts
 * fetched once the first paint is done instead of competing with it for a slow link: a loader adds
 * them (in order) right after the first frame, or at once in a hidden tab (no frames there).
 *
 * With them go the chunks of the page the view shows (`viewFiles`: view name -> the scripts and style
 * sheets its route fetched when it was prerendered, other than the entry's): its scripts as async
 * scripts, its style sheets as preloads. Otherwise the router asks for them only once the app runs,
 * inside the task that mounts the page (creating the elements and compiling the scripts there: about
 * 80 ms of that task at Lighthouse's 4x slowdown), and a round trip later. webpack's chunk loading then
 * finds the scripts already run, or still loading, by their `src` (no second request); a preloaded
 * style sheet is not one it matches, so it still adds the sheet itself and waits for it to load
 * before the page renders, from the preload's copy.
 */
function paintFirst (html, dir, viewFiles = {}) {
  // the SVG icon written into its link as a data URI: a request less (its headers weigh more than it)
  html = html.replace(/<link rel="icon" href="(\/[\w.-]+\.svg)" type="image\/svg\+xml">/g, (tag, href) => {
    const file = path.join(dir, href)
    if (!fs.existsSync(file) || fs.statSync(file).size > ICON_INLINE_MAX) return tag
    const svg = fs.readFileSync(file, 'utf8').trim().replace(/[\r\n]+/g, ' ')
    return `<link rel="icon" href="data:image/svg+xml,${svgDataUri(svg)}" type="image/svg+xml">`
  })
  html = html.replace(/<link href="(\/css\/[^"]+\.css)" rel="stylesheet">/g, (tag, href) => {
    const file = path.join(dir, href)
    if (!fs.existsSync(file)) return tag
    const css = fs.readFileSync(file, 'utf8').replace(/url\((['"]?)([^'")]+)\1\)/g, (m, q, u) =>
      /^(data:|#|\/|https?:)/.test(u) ? m : `url("${new URL(u, `http://x${href}`).pathname}")`)
    return `<style data-entry-css="${href}">${css}</style>`
  })
  const scripts = []
  html = html.replace(/<script defer="defer" src="([^"]+)"><\/script>/g, (_, src) => { scripts.push(src); return '' })
  if (!scripts.length) return html
  const entry = new Set(scripts)
  const pages = {}
  for (const [view, files] of Object.entries(viewFiles)) {
    const own = (files || []).filter(f => !entry.has(f) && !html.includes(`data-entry-css="${f}"`))
    if (own.length) pages[view] = own
  }
  const loader = `!function(d){var done=0,js=${JSON.stringify(scripts)},pages=${JSON.stringify(pages)};function go(){if(done)return;done=1;` +
    'js.forEach(function(src){var s=d.createElement(\'script\');s.src=src;s.async=false;d.head.appendChild(s)});' +
    'var own=pages[d.documentElement.getAttribute(\'data-prerender\')]||[];' +
    'own.forEach(function(src){var e;if(/\\.css$/.test(src)){e=d.createElement(\'link\');e.rel=\'preload\';e.setAttribute(\'as\',\'style\');e.href=src}' +
    'else{e=d.createElement(\'script\');e.src=src;e.async=true}d.head.appendChild(e)})}' +
    // after the frame, once the browser reports the first contentful paint where it can (Chrome, Safari
    // 14.1+): a frame's end can come before its paint is presented, and a script fetched in between
    // competes with it
    'function painted(){var P=window.PerformanceObserver,T=P&&P.supportedEntryTypes;if(!T||T.indexOf(\'paint\')<0)return go();' +
    'var o=new P(function(l){if(l.getEntriesByName(\'first-contentful-paint\').length){o.disconnect();go()}});o.observe({type:\'paint\',buffered:true})}' +
    'if(d.visibilityState===\'hidden\')go();else{requestAnimationFrame(function(){setTimeout(painted,0)});setTimeout(go,1000)}}(document)'
  return html.replace('</body>', `<script data-entry-loader>${loader}</script></body>`)
}

/** Icons up to this size (bytes) are written into the document. */
const ICON_INLINE_MAX = 2048
/** An SVG as the data of a data: URI, percent-encoding only what a URI or the attribute cannot hold. */
function svgDataUri (svg) {
  // eslint-disable-next-line no-control-regex
  return svg.replace(/[%#<>"\x00-\x1f\x7f-\uffff]/g, c => encodeURIComponent(c))
}

/** Removes an earlier prerender from the HTML (a rebuild or a second run). */
function stripPrerender (html) {
  const re = new RegExp(`${MARK_START}[\\s\\S]*?${MARK_END}`, 'g')
  return html.replace(re, '')
}

/** Prerenders into dir/index.html; answers a summary, or null when Chromium is missing. */
async function prerender (dir, { log = console.log } = {}) {
  const chromium = chromiumPath()
  if (!chromium) {
    log('prerender: no Chromium (set CHROMIUM_PATH or apt-get install -y chromium): index.html keeps its splash only')
    return null
  }
  const indexFile = path.join(dir, 'index.html')
  const original = stripPrerender(fs.readFileSync(indexFile, 'utf8'))
  fs.writeFileSync(indexFile, original) // the pages render without an older copy in the way
  for (const view of VIEWS) {
    if (view.document === 'index.html') continue
    for (const ext of ['', '.br', '.gz']) fs.rmSync(path.join(dir, view.document + ext), { force: true })
  }
  const { createServer } = require('./serve-h5')
  const { chromium: pw } = require('playwright-core')
  const server = createServer(dir)
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${server.address().port}`
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'prerender-'))
  const browser = await pw.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
  const ctxFactory = locale => browser.newContext({
    locale: locale === 'zh' ? 'zh-CN' : 'en-US',
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true
  })
  try {
    const t0 = Date.now()
    const views = []
    let configured = null
    for (const view of VIEWS) {
      for (const locale of LOCALES) {
        // first as a new visitor whose browser speaks the language: does the app speak it too?
        let snap = await snapshot(ctxFactory, base, view, locale, false)
        const got = snap.locale.slice(0, 2)
        if (got !== locale) {
          // a configured language (TARO_APP_LOCALE) wins over the browser's: take the view by choice
          configured = got
          snap = await snapshot(ctxFactory, base, view, locale, true)
          if (snap.locale.slice(0, 2) !== locale) throw new Error(`${view.route}: the app did not render in ${locale} (got ${snap.locale})`)
        }
        views.push({ name: `${view.page}-${locale}`, locale, html: snap.html, rules: snap.rules, files: snap.files })
      }
    }
    const defaultLocale = configured || FALLBACK_LOCALE
    if (!original.includes('</head>') || !/<body[^>]*>/.test(original)) throw new Error('index.html has no </head> or <body>')
    const documents = []
    for (const { page, document } of VIEWS) {
      const own = views.filter(v => v.name.startsWith(`${page}-`))
      const css = mergeRules(own.map(v => v.rules)).join('\n')
      let html = original.replace('</head>', `${headBlock(page, own, css, defaultLocale, configured)}</head>`)
      html = html.replace(/<body([^>]*)>/, (m) => `${m}${bodyBlock(own)}`)
      html = paintFirst(html, dir, Object.fromEntries(own.map(v => [v.name, v.files])))
      const file = path.join(dir, document)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, html)
      // the server sends the documents compressed: their copies follow the new files
      for (const ext of ['br', 'gz']) fs.rmSync(`${file}.${ext}`, { force: true })
      documents.push({ file: document, views: own.map(v => v.name), htmlBytes: html.length, cssBytes: css.length })
    }
    require('./precompress').precompressDir(dir)
    const summary = { views: views.map(v => v.name), documents, ms: Date.now() - t0, defaultLocale }
    log(`prerender in ${(summary.ms / 1000).toFixed(1)} s: ${documents.map(d => `${d.views.join(', ')} into ${d.file} (${(d.htmlBytes / 1024).toFixed(1)} KB, CSS ${(d.cssBytes / 1024).toFixed(1)} KB)`).join('; ')}`)
    return summary
  } finally {
    await browser.close()
    server.close()
    fs.rmSync(profile, { recursive: true, force: true })
  }
}

/** The webpack plugin: after a production H5 build has written its files, prerender into them. */
class PrerenderPlugin {
  apply (compiler) {
    compiler.hooks.afterEmit.tapPromise('prerender', async compilation => {
      if (compilation.errors && compilation.errors.length) return
      const dir = compilation.outputOptions.path || compiler.outputPath
      try {
        await prerender(dir)
      } catch (err) {
        // a build without its prerender still works (the splash shows); say so loudly
        compilation.warnings.push(new Error(`prerender failed: ${err && err.stack ? err.stack : err}`))
        console.warn(`prerender failed: ${err && err.message ? err.message : err}`)
      }
    })
  }
}

module.exports = { prerender, PrerenderPlugin, stripPrerender, mergeRules, paintFirst, MARK_START, MARK_END }

if (require.main === module) {
  prerender(path.resolve(process.argv[2] || path.join(__dirname, '..', 'dist', 'h5'))).catch(err => {
    console.error(err)
    process.exit(1)
  })
}
