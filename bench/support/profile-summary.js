/**
 * Reads a V8 CPU profile (node --cpu-prof) and answers where the time went, by what the code is:
 * SQLite (better-sqlite3's calls), query building (Kysely), validation and serialisation (Ajv,
 * fast-json-stringify), HTTP (Fastify, light parsing, node's http), sessions, JSON, crypto, the shop's own
 * code by file, and the rest. Self time of each sample goes to the innermost frame that names a group,
 * so time inside a library called from the shop counts for the library.
 */
const fs = require('node:fs')
const path = require('node:path')

const GROUPS = [
  // better-sqlite3's calls are native: their time shows in the JS frame that made them (Kysely's SQLite
  // driver executeQuery, the shop's statement cache in db/index.ts, or its own driver in db/sqlite-driver.ts)
  ['SQLite (better-sqlite3)', f => /better-sqlite3/.test(f.url) || (/sqlite-driver\.js$/.test(f.url) && f.functionName === 'executeQuery') ||
    (/server\/src\/db\/index\.ts$/.test(f.url) && f.functionName === 'prepare') ||
    (/server\/src\/db\/sqlite-driver\.ts$/.test(f.url) && /^(run|prepare|tryRead)$/.test(f.functionName)) || (f.url === '' && /^(run|get|all|iterate|exec|pragma)$/.test(f.functionName))],
  ['PostgreSQL client (pg)', f => /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(f.url)],
  ['query building (Kysely)', f => /node_modules\/kysely\//.test(f.url)],
  ['validation (Ajv)', f => /node_modules\/ajv/.test(f.url) || /^validate\d*$/.test(f.functionName)],
  ['answer serialisation (fast-json-stringify)', f => /fast-json-stringify|json-stringify/.test(f.url) || (/^\$main|anonymous\d+$/.test(f.functionName) && f.url === '')],
  ['JSON.parse / JSON.stringify', f => f.url === '' && /^(parse|stringify)$/.test(f.functionName)],
  ['crypto (hashes)', f => /node:internal\/crypto|crypto/.test(f.url) || /^(digest|update|createHash|Hash)$/.test(f.functionName)],
  ['logging (pino)', f => /node_modules\/(pino|sonic-boom)/.test(f.url)],
  ['Fastify', f => /node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio|fastq)\//.test(f.url)],
  ['node http / net', f => /node:(_http|http|net|internal\/(http|stream|streams|net))|_http_/.test(f.url) || /^(writev|writeUtf8String|writeLatin1String|writeBuffer)$/.test(f.functionName)],
  ['garbage collection', f => f.functionName === '(garbage collector)'],
  ['idle', f => f.functionName === '(idle)'],
  ['program (native, not attributed)', f => f.functionName === '(program)']
]

function summarize (file, root) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'))
  const nodes = new Map(profile.nodes.map(n => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id)
  const groupOf = new Map()
  const classify = (id) => {
    if (groupOf.has(id)) return groupOf.get(id)
    let cur = id
    let result = null
    while (cur !== undefined) {
      const f = nodes.get(cur).callFrame
      const g = GROUPS.find(([, test]) => test(f))
      if (g) { result = g[0]; break }
      if (f.url.includes('/server/src/')) { result = `shop: ${path.relative(root, f.url.replace(/^file:\/\//, ''))}`; break }
      cur = parent.get(cur)
    }
    if (!result) result = 'other'
    groupOf.set(id, result)
    return result
  }
  const totals = new Map()
  let all = 0
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] || 0
    const g = classify(id)
    totals.set(g, (totals.get(g) || 0) + dt)
    all += dt
  })
  const busy = all - (totals.get('idle') || 0)
  return { busyMs: busy / 1000, rows: [...totals].filter(([g]) => g !== 'idle').sort((a, b) => b[1] - a[1]).map(([group, us]) => ({ group, ms: us / 1000, share: us / busy })) }
}

module.exports = { summarize }

if (require.main === module) {
  const file = process.argv[2]
  const { busyMs, rows } = summarize(file, path.resolve(__dirname, '..', '..'))
  console.log(`busy ${busyMs.toFixed(0)} ms`)
  for (const r of rows.slice(0, Number(process.argv[3] || 25))) console.log(`${(100 * r.share).toFixed(1).padStart(6)} %  ${r.ms.toFixed(0).padStart(7)} ms  ${r.group}`)
}
