#!/usr/bin/env node
/**
 * Sizes of the weapp build per package against the project's budgets (ARCHITECTURE.md, issue 12):
 * main package <= 600 KB, each subpackage <= 1 MB, in decimal
 * kilobytes, the stricter reading (WeChat's own hard limit is 2 MB each).
 * Source maps and the DevTools project files do not ship and are not counted.
 */
const fs = require('node:fs')
const path = require('node:path')

const KB = 1000
const BUDGET = { main: 600 * KB, sub: 1000 * KB }
const dist = path.resolve(__dirname, '..', 'dist', 'weapp')
const appJson = JSON.parse(fs.readFileSync(path.join(dist, 'app.json'), 'utf8'))
const subRoots = (appJson.subPackages || appJson.subpackages || []).map(p => p.root.replace(/\/?$/, '/'))
const ignored = rel => rel.endsWith('.map') || /^project(\.private)?\.config\.json$/.test(rel)

const totals = new Map([['(main)', 0], ...subRoots.map(r => [r, 0])])
function walk (dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name)
    if (entry.isDirectory()) { walk(abs); continue }
    const rel = path.relative(dist, abs).split(path.sep).join('/')
    if (ignored(rel)) continue
    const key = subRoots.find(r => rel.startsWith(r)) || '(main)'
    totals.set(key, totals.get(key) + fs.statSync(abs).size)
  }
}
walk(dist)

let failed = false
for (const [name, bytes] of totals) {
  const budget = name === '(main)' ? BUDGET.main : BUDGET.sub
  const over = bytes > budget
  failed = failed || over
  console.log(`${over ? 'OVER' : 'ok  '} ${name.padEnd(10)} ${(bytes / KB).toFixed(1).padStart(8)} KB of ${budget / KB} KB (${(100 * bytes / budget).toFixed(0)} %)`)
}
process.exit(failed ? 1 : 0)
