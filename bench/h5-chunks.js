#!/usr/bin/env node
/**
 * How the H5 build's code is split: the modules that appear in more than one chunk (each copy is code a
 * phone downloads and evaluates again when it opens another page) and, for the login and home pages,
 * the chunks they load with their brotli sizes. Reads webpack's statistics of the build
 * (dist/h5-stats.json, written by an `ANALYZE=1` build).
 *
 * Usage: node bench/h5-chunks.js [--build]   (--build runs ANALYZE=1 npm run build:h5 first; BY_FILE=1 weighs
 * each file instead of each package, ROWS=n prints n rows instead of 40)
 */
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')

const root = path.resolve(__dirname, '..')
const statsFile = path.join(root, 'dist', 'h5-stats.json')
const dist = path.join(root, 'dist', 'h5')

if (process.argv.includes('--build') || !fs.existsSync(statsFile)) {
  const r = spawnSync('npm', ['run', 'build:h5'], { cwd: root, stdio: 'inherit', env: { ...process.env, ANALYZE: '1', NODE_ENV: 'production' } })
  if (r.status !== 0) process.exit(r.status || 1)
}
const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8'))
const chunkById = new Map(stats.chunks.map(c => [c.id, c]))
const jsOf = c => c.files.filter(f => f.endsWith('.js'))
const brSize = file => {
  const p = path.join(dist, file)
  if (!fs.existsSync(p)) return 0
  return fs.existsSync(`${p}.br`) ? fs.statSync(`${p}.br`).size : zlib.brotliCompressSync(fs.readFileSync(p)).length
}

// every module (a concatenated group counts as its parts) and the chunks holding it
const holders = new Map()
for (const m of stats.modules) {
  if (!m.chunks || !m.name) continue
  const parts = m.modules && m.modules.length ? m.modules : [m]
  for (const part of parts) {
    const name = part.name.replace(/ \+ \d+ modules?$/, '')
    if (/^(css|ignored|webpack\/runtime)/.test(name)) continue
    const entry = holders.get(name) || { size: part.size || 0, chunks: new Set() }
    for (const c of m.chunks) entry.chunks.add(c)
    holders.set(name, entry)
  }
}
const repeated = [...holders].filter(([, h]) => h.chunks.size > 1)
const repeatedBytes = repeated.reduce((n, [, h]) => n + h.size * (h.chunks.size - 1), 0)

// which async chunk is which page: the chunk that holds the page's module
const pageOf = new Map()
for (const [name, h] of holders) {
  const page = /^\.\/src\/(pages|pagesA)\/([a-z_]+)\/index\.tsx$/.exec(name)
  if (page && h.chunks.size === 1) pageOf.set([...h.chunks][0], `${page[1]}/${page[2]}`)
}

console.log(`H5 build: ${stats.chunks.length} chunks, ${holders.size} modules`)
console.log(`modules in more than one chunk: ${repeated.length} (${(repeatedBytes / 1024).toFixed(1)} KB of source repeated)`)
for (const [name, h] of repeated.sort((a, b) => b[1].size * b[1].chunks.size - a[1].size * a[1].chunks.size).slice(0, 15)) {
  console.log(`  ${String(h.chunks.size).padStart(3)} chunks  ${(h.size / 1024).toFixed(1).padStart(6)} KB  ${name}`)
}

// the first load of a page: the initial chunks, the page's chunk and the chunks it needs with it
const initial = stats.chunks.filter(c => c.initial)
for (const [label, page] of [['login', 'pages/login'], ['home', 'pagesA/home']]) {
  const id = [...pageOf].find(([, p]) => p === page)?.[0]
  const pageChunk = chunkById.get(id)
  // chunks loaded together with the page chunk come from the same import() (the same origin)
  const same = (a, b) => a.request === b.request && a.moduleId === b.moduleId
  const siblings = pageChunk ? stats.chunks.filter(c => !c.initial && c.id !== id && (c.origins || []).some(o => (pageChunk.origins || []).some(po => same(po, o)))) : []
  const files = [...initial, ...(pageChunk ? [pageChunk] : []), ...siblings].flatMap(jsOf)
  const total = files.reduce((n, f) => n + brSize(f), 0)
  console.log(`${label.padEnd(6)} loads ${files.length} scripts, ${(total / 1024).toFixed(1)} KB brotli: ${files.map(f => `${path.basename(f)} ${(brSize(f) / 1024).toFixed(1)}`).join(', ')}`)
}

// what each package weighs in the scripts of the first pages: the minified bytes the source maps of an
// ANALYZE=1 build attribute to it, scaled by its script's brotli ratio
const firstFiles = new Set()
for (const line of [['pages/login'], ['pagesA/home']]) {
  const id = [...pageOf].find(([, p]) => p === line[0])?.[0]
  for (const c of [...initial, chunkById.get(id)].filter(Boolean)) for (const f of jsOf(c)) firstFiles.add(f)
}
const common = stats.chunks.find(c => c.names && c.names.includes('pages-common'))
if (common) for (const f of jsOf(common)) firstFiles.add(f)
const haveMaps = [...firstFiles].every(f => fs.existsSync(path.join(dist, `${f}.map`)))
if (!haveMaps) {
  console.log('(no source maps: run with --build for the weight of each package)')
} else {
  const { SourceMapConsumer } = require('source-map-js')
  const weight = new Map()
  const keyOf = source => {
    const s = source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^\.\//, '')
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)(\/(dist\/)?([^/]+))?/.exec(s)
    if (pkg) return pkg[1].startsWith('@tarojs/') ? `${pkg[1]}/${pkg[5] || ''}` : pkg[1]
    return process.env.BY_FILE ? s : s.replace(/\/[^/]+$/, '/')
  }
  for (const f of firstFiles) {
    const code = fs.readFileSync(path.join(dist, f), 'utf8')
    const lines = code.split('\n')
    const ratio = brSize(f) / Buffer.byteLength(code)
    const map = new SourceMapConsumer(JSON.parse(fs.readFileSync(path.join(dist, `${f}.map`), 'utf8')))
    const segments = []
    map.eachMapping(m => segments.push(m))
    segments.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn)
    for (let i = 0; i < segments.length; i++) {
      const m = segments[i]
      const next = segments[i + 1]
      const end = next && next.generatedLine === m.generatedLine ? next.generatedColumn : lines[m.generatedLine - 1].length
      const key = m.source ? keyOf(m.source) : '(webpack)'
      weight.set(key, (weight.get(key) || 0) + (end - m.generatedColumn) * ratio)
    }
  }
  const rows = [...weight].sort((a, b) => b[1] - a[1])
  console.log(`the scripts of login and home and pages-common by package, brotli-scaled (total ${(rows.reduce((n, [, w]) => n + w, 0) / 1024).toFixed(1)} KB):`)
  for (const [k, w] of rows.slice(0, Number(process.env.ROWS || 40))) console.log(`  ${(w / 1024).toFixed(2).padStart(6)} KB  ${k}`)
}
