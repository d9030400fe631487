#!/usr/bin/env node
/**
 * What must never ship in the app's bundles (dist/h5, dist/weapp): the contract's schema code. The app
 * imports types from types/ (erased at build time) and plain constants from types/limits.ts only;
 * TypeBox in a bundle means a value import slipped in. Marks of TypeBox's runtime: its '~kind' and
 * '~optional' property names and its module paths.
 * Usage: node scripts/check-bundles.js [h5|weapp ...] (default: whichever builds exist).
 */
const fs = require('node:fs')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const MARKS = [/['"]~kind['"]/, /['"]~optional['"]/, /node_modules[\\/]typebox/]

function files (dir) {
  const out = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...files(abs))
    else if (/\.js$/.test(entry.name)) out.push(abs)
  }
  return out
}

const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['h5', 'weapp'].filter(t => fs.existsSync(path.join(root, 'dist', t)))
let failed = false
for (const target of targets) {
  const dir = path.join(root, 'dist', target)
  if (!fs.existsSync(dir)) { console.error(`dist/${target} does not exist: build it first`); failed = true; continue }
  const hits = []
  const all = files(dir)
  for (const file of all) {
    const text = fs.readFileSync(file, 'utf8')
    for (const mark of MARKS) if (mark.test(text)) hits.push(`${path.relative(root, file)}: ${mark}`)
  }
  failed = failed || hits.length > 0
  console.log(hits.length ? `FAIL dist/${target}: schema code in the bundle\n  ${hits.join('\n  ')}` : `ok   dist/${target}: ${all.length} scripts, no schema code`)
}
process.exit(failed ? 1 : 0)
