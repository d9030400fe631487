#!/usr/bin/env node
/**
 * What must never ship in the app's bundles (dist/h5, dist/weapp):
 * - the contract's schema code. The app imports types from types/ (erased at build time) and plain
 *   constants from types/limits.ts only; TypeBox in a bundle means a value import slipped in. Marks of
 *   TypeBox's runtime: its '~kind' and '~optional' property names and its module paths.
 * - Preact. The product runs React on both builds (issue 23); Preact's code keeps its own short
 *   property names through minification: a vnode's children `__k` next to the hooks' state `__H`
 *   (React DOM has neither), or its module path.
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

/** What a script's text carries that must not ship: one line per rule it breaks. */
function forbidden (text) {
  return RULES.flatMap(r => r.test(text).map(mark => `${r.what} (${mark})`))
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
      for (const hit of forbidden(fs.readFileSync(file, 'utf8'))) hits.push(`${path.relative(root, file)}: ${hit}`)
    }
    failed = failed || hits.length > 0
    console.log(hits.length ? `FAIL dist/${target}: what must not ship is in the bundle\n  ${hits.join('\n  ')}` : `ok   dist/${target}: ${all.length} scripts, no schema code, no Preact`)
  }
  process.exit(failed ? 1 : 0)
}

if (require.main === module) main()

module.exports = { forbidden }
