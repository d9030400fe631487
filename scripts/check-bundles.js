#!/usr/bin/env node
/**
 * What must never ship in the app's bundles (dist/h5, dist/weapp):
 * - the contract's schema code. The app imports types from types/ (erased at build time) and plain
 *   constants from types/limits.ts only; TypeBox in a bundle means a value import slipped in. Marks of
 *   TypeBox's runtime: its '~kind' and '~optional' property names and its module paths.
 * - Preact. The product runs React on both builds (issue 23); Preact's code keeps its own short
 *   property names through minification: a vnode's children `__k` next to the hooks' state `__H`
 *   (React DOM has neither), or its module path.
 * - (H5) style-loader's code that inserts style sheets from scripts: Taro's component styles go into the
 *   entry's CSS file (config/index.ts), and there they come before the app's own rules, which override
 *   them (src/taro-styles.h5.ts). A wrong order shows on no test page by itself: the prerender copies
 *   whatever the app looks like.
 * - (H5) MobX anywhere but its own chunk (js/mobx.*.js). The first pages (login, home) follow their stores
 *   without it and load it not at all (src/stores/signal.ts, config/index.ts); in the entry or in a chunk
 *   shared with them, every first visit would download it again. Mark: its errors' "[MobX]" prefix,
 *   kept by minification.
 * Usage: node scripts/check-bundles.js [h5|weapp ...] (default: whichever builds exist).
 */
const fs = require('node:fs')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const RULES = [
  { what: 'schema code', test: text => [/['"]~kind['"]/, /['"]~optional['"]/, /node_modules[\\/]typebox/].filter(m => m.test(text)).map(String) },
  {
    what: 'Preact',
    test: text => [
      ...(/\.__k\b/.test(text) && /\.__H\b/.test(text) ? ['.__k with .__H'] : []),
      ...(/node_modules[\\/]preact[\\/]/.test(text) ? ['node_modules/preact/'] : [])
    ]
  }
]

const H5_RULES = [
  { what: "style-loader's insertion code", test: text => /_lastElementInsertedByStyleLoader/.test(text) ? ['_lastElementInsertedByStyleLoader'] : [] },
  { what: 'MobX outside its chunk', test: (text, name) => /\[MobX\]/.test(text) && !/^mobx\.\w+\.js$/.test(path.basename(name)) ? ['[MobX]'] : [] }
]

/** What a script (its text, its file name) carries that must not ship: one line per rule it breaks. */
function forbidden (text, target = 'weapp', name = '') {
  return [...RULES, ...(target === 'h5' ? H5_RULES : [])].flatMap(r => r.test(text, name).map(mark => `${r.what} (${mark})`))
}

/** A rule of Taro's button and one of src/app.scss: the first must come first in the entry's CSS. */
const TARO_MARK = '.taro-button-core{'
const APP_MARK = '.text-sub{'

/** The H5 entry's CSS text (css/app.*.css): what is wrong with its order, if anything. */
function entryCssOrder (css) {
  const taro = css.indexOf(TARO_MARK)
  const app = css.indexOf(APP_MARK)
  if (taro < 0) return [`no ${TARO_MARK} in the entry's CSS: Taro's component styles are not in it`]
  if (app < 0) return [`no ${APP_MARK} in the entry's CSS: src/app.scss is not in it (or the mark in scripts/check-bundles.js needs changing)`]
  return taro < app ? [] : ["Taro's component styles come after the app's rules in the entry's CSS: src/app.tsx must import ./taro-styles first"]
}

function files (dir) {
  const out = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...files(abs))
    else if (/\.js$/.test(entry.name)) out.push(abs)
  }
  return out
}

function main () {
  const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['h5', 'weapp'].filter(t => fs.existsSync(path.join(root, 'dist', t)))
  let failed = false
  for (const target of targets) {
    const dir = path.join(root, 'dist', target)
    if (!fs.existsSync(dir)) { console.error(`dist/${target} does not exist: build it first`); failed = true; continue }
    const hits = []
    const all = files(dir)
    for (const file of all) {
      for (const hit of forbidden(fs.readFileSync(file, 'utf8'), target, file)) hits.push(`${path.relative(root, file)}: ${hit}`)
    }
    if (target === 'h5') {
      const css = fs.readdirSync(path.join(dir, 'css')).filter(f => /^app\.[\w]+\.css$/.test(f))
      if (css.length !== 1) hits.push(`dist/h5/css: ${css.length} entry CSS files (app.*.css), expected 1`)
      else for (const problem of entryCssOrder(fs.readFileSync(path.join(dir, 'css', css[0]), 'utf8'))) hits.push(`dist/h5/css/${css[0]}: ${problem}`)
    }
    failed = failed || hits.length > 0
    console.log(hits.length ? `FAIL dist/${target}: what must not ship is in the bundle\n  ${hits.join('\n  ')}` : `ok   dist/${target}: ${all.length} scripts, no schema code, no Preact${target === 'h5' ? ", no style-loader, MobX in its own chunk only, Taro's styles before the app's" : ''}`)
  }
  process.exit(failed ? 1 : 0)
}

if (require.main === module) main()

module.exports = { forbidden, entryCssOrder }
