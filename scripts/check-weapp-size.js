#!/usr/bin/env node
/**
 * Sizes of the weapp build per package against the project's budgets (ARCHITECTURE.md):
 * main package <= 1 MB, each subpackage <= 1.5 MB (WeChat's own hard limit is 2 MB each).
 * Source maps and the DevTools project files do not ship and are not counted.
 */
const fs = require('node:fs')
const path = require('node:path')

const KiB = 1024
const BUDGET = { main: 1024 * KiB, sub: 1536 * KiB }
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
  console.log(`${over ? 'OVER' : 'ok  '} ${name.padEnd(10)} ${(bytes / KiB).toFixed(1).padStart(8)} KiB of ${budget / KiB} KiB`)
}
process.exit(failed ? 1 : 0)
