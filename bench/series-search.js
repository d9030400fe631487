#!/usr/bin/env node
/**
 * Finding a series at scale (issue 27 item 2), against a bare reference in the same run: 10,000 series
 * (zh and en titles, theme tags, rarities, prices) and 1,000,000 sold boxes (purchases spread over the
 * last 14 days, so "popular" counts about half of them). Goal: a search answers at p99 <= 50 ms with 10
 * connections on SQLite.
 *
 * Each server runs in a child process, driven by autocannon from here on 127.0.0.1, in rounds (bare,
 * shop, bare, shop...; medians reported):
 *   bare   Fastify + better-sqlite3 (WAL), POST /bare: one indexed query on a 10,000-row table
 *          (a price range in index order, 20 rows) answered as JSON
 *   shop   the real app (buildApp) on a fresh database with the data above, POST /api/seriesList with
 *          a mix of searches: a title word (zh or en, half-width or full-width), filters (price band,
 *          rarity, hidden design, theme), every sort (popular included), pages 1-3
 * and once, the same at the suggestions call (POST /api/seriesSuggest).
 * The data is written with plain SQL (minutes otherwise); the search rows through the server's own
 * indexSeries, as every series save writes them.
 *
 * --db postgres: the same on a PostgreSQL started here (bench/support/postgres.js), the bare route on a
 * pg pool of 10, the data written with generate_series.
 *
 * Usage: node bench/series-search.js [--seconds 8] [--connections 10] [--rounds 3] [--db sqlite|postgres]
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const layerOf = (src, name) => {
  // domain/<subject>/<name>.ts since issue 49; domain/<name>.ts or services/<name>.ts in older server code
  const subject = fs.existsSync(path.join(src, 'domain')) && fs.readdirSync(path.join(src, 'domain')).find(d => fs.existsSync(path.join(src, 'domain', d, `${name}.ts`)))
  if (subject) return path.join(src, 'domain', subject, name)
  return fs.existsSync(path.join(src, 'domain', `${name}.ts`)) ? path.join(src, 'domain', name) : path.join(src, 'services', name)
}
const { quantile } = require('./support/quantile')
const { arg, runCannon, codeCounter, startChild, summary, timesOf, resetTimes } = require('./support/load')

const ROOT = path.resolve(__dirname, '..')
const GOAL = { p99Ms: 50 }
const SERIES = 10_000
const BOXES = 1_000_000
const TAGS = 20
const WARMUP_SECONDS = 2
const PREFIX = '/dev-api'
const DAY = 24 * 60 * 60 * 1000

const ZH_A = ['星际', '萌宠', '甜品', '森林', '海洋', '机甲', '花园', '魔法', '城市', '古风']
const ZH_B = ['旅人', '派对', '乐园', '物语', '小队', '日记', '学院', '冒险']
const EN_A = ['Star', 'Pet', 'Sweet', 'Forest', 'Ocean', 'Mecha', 'Garden', 'Magic', 'City', 'Ancient']
const EN_B = ['Travellers', 'Party', 'Park', 'Tales', 'Squad', 'Diary', 'Academy', 'Quest']

// ---- children ----------------------------------------------------------------------------------

const serverTimes = []
function timeRequests (app, urls) {
  app.addHook('onResponse', async (request, reply) => { if (urls.includes(request.url)) serverTimes.push(reply.elapsedTime) })
}

function control (close) {
  process.on('message', async (msg) => {
    if (msg.type === 'times-reset') {
      serverTimes.length = 0
      process.send({ type: 'times-reset' })
    } else if (msg.type === 'times') {
      process.send({ type: 'times', n: serverTimes.length, p50: quantile(serverTimes, 0.5), p99: quantile(serverTimes, 0.99) })
    } else if (msg.type === 'stop') {
      await close()
      process.exit(0)
    }
  })
}

/** The bare reference on PostgreSQL: the same query through a pg pool. */
async function serveBarePostgres (url) {
  const Fastify = require('fastify')
  const pg = require('pg')
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  await pool.query('create table items (id integer primary key, name text not null, price integer not null)')
  await pool.query(`insert into items select i, 'item ' || i, 100 + (i * 7919) % 19900 from generate_series(1, ${SERIES}) i`)
  await pool.query('create index items_price_idx on items (price, id)')
  await pool.query('analyze items')
  const app = Fastify({ logger: false })
  app.post('/bare', {
    schema: { body: { type: 'object', required: ['min'], properties: { min: { type: 'integer' } } } }
  }, async (request) => ({ code: 200, message: 'ok', data: (await pool.query('select id, name, price from items where price >= $1 order by price, id limit 20', [request.body.min])).rows }))
  timeRequests(app, ['/bare'])
  await app.listen({ port: 0, host: '127.0.0.1' })
  control(async () => { await app.close(); await pool.end() })
  process.send({ type: 'ready', port: app.server.address().port })
}

/** The bare reference: one indexed query on 10,000 rows. */
async function serveBare () {
  const Fastify = require('fastify')
  const Sqlite = require('better-sqlite3')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-search-'))
  const db = new Sqlite(path.join(dir, 'bare.sqlite'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.exec('create table items (id integer primary key, name text not null, price integer not null)')
  db.exec('create index items_price_idx on items (price, id)')
  const insert = db.prepare('insert into items (id, name, price) values (?, ?, ?)')
  db.transaction(() => { for (let i = 1; i <= SERIES; i++) insert.run(i, `item ${i}`, 100 + (i * 7919) % 19900) })()
  const query = db.prepare('select id, name, price from items where price >= ? order by price, id limit 20')
  const app = Fastify({ logger: false })
  app.post('/bare', {
    schema: { body: { type: 'object', required: ['min'], properties: { min: { type: 'integer' } } } }
  }, async (request) => ({ code: 200, message: 'ok', data: query.all(request.body.min) }))
  timeRequests(app, ['/bare'])
  await app.listen({ port: 0, host: '127.0.0.1' })
  control(async () => { await app.close(); db.close(); fs.rmSync(dir, { recursive: true, force: true }) })
  process.send({ type: 'ready', port: app.server.address().port })
}

/** The bulk of the data on PostgreSQL, in SQL (the same shapes as on SQLite). */
async function seedPostgres (db, sql) {
  const arr = xs => `array[${xs.map(x => `'${x}'`).join(', ')}]`
  const exec = text => sql.raw(text).execute(db)
  await exec("insert into users (id, user_name, nickname, role, created_at, updated_at) overriding system value values (1, 'bench', 'Bench', 'shopper', now(), now())")
  await exec("insert into ledger_transactions (id, kind, reference, user_id, created_at) overriding system value values (1, 'purchase', 'bench', 1, now())")
  await exec(`insert into series (id, name, name_en, description, description_en, cover, price_cents, case_size, hidden_ppm, status, created_at, updated_at)
    overriding system value
    select i, (${arr(ZH_A)})[1 + i % 10] || (${arr(ZH_B)})[1 + (i / 10) % 8] || ' ' || i,
      (${arr(EN_A)})[1 + i % 10] || ' ' || (${arr(EN_B)})[1 + (i / 10) % 8] || ' ' || i, '', '', '/media/art/1f381.webp',
      500 + (i * 7919) % 19500, 12, case when i % 3 = 0 then 83333 else 0 end, case when i % 20 = 0 then 'retired' else 'on_sale' end,
      now() - (${SERIES} - i) * interval '1 minute', now() - (${SERIES} - i) * interval '1 minute'
    from generate_series(1, ${SERIES}) i`)
  await exec(`insert into designs (series_id, name, name_en, rarity, image, reference_value_cents, recycle_value_cents, sort, created_at)
    select i, '常规', 'Regular', 'regular', '/media/art/1f381.webp', 1000, 100, 1, now() from generate_series(1, ${SERIES}) i
    union all select i, '稀有', 'Rare', 'rare', '/media/art/1f381.webp', 1000, 100, 2, now() from generate_series(2, ${SERIES}, 2) i
    union all select i, '隐藏', 'Hidden', 'hidden', '/media/art/1f381.webp', 1000, 100, 3, now() from generate_series(3, ${SERIES}, 3) i`)
  await exec(`insert into cases (id, series_id, size, commit_hash, arrangement, salt, status, created_at) overriding system value
    select i, i, 12, 'x', '[]', 'x', 'sold_out', now() from generate_series(1, ${SERIES}) i`)
  // 400,000 purchases of 2, 3, 4, 1 boxes in turn: 1,000,000 boxes over the last 14 days
  await exec(`insert into purchases (user_id, case_id, series_id, slots, total_cents, credit_cents, cash_cents, tx_id, created_at)
    select 1, s, s, (array['[1]', '[1,2]', '[1,2,3]', '[1,2,3,4]'])[1 + n % 4], 100, 0, 100, 1, now() - random() * interval '14 days'
    from (select n, 1 + floor(${SERIES} * power(random(), 2))::int as s from generate_series(1, ${(BOXES / 2.5)}) n) p`)
  await exec('analyze')
}

/** The shop on a fresh database holding 10,000 series and 1,000,000 sold boxes. */
async function serveShop (dir, databaseUrl) {
  require('tsx/cjs/api').register()
  const src = path.join(ROOT, 'server', 'src')
  const { loadConfig } = require(path.join(src, 'config'))
  const { openDatabase, sqlitePathIn } = require(path.join(src, 'db'))
  const { migrateToLatest } = require(path.join(src, 'db', 'migrate'))
  const { buildApp } = require(path.join(src, 'app'))
  const { setSeriesTags } = require(layerOf(src, 'seriesSearch'))
  const { indexSeries } = require(fs.existsSync(`${layerOf(src, 'seriesIndex')}.ts`) ? layerOf(src, 'seriesIndex') : layerOf(src, 'seriesSearch'))

  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, STATIC_DIR: path.join(dir, 'no-h5'), TRUST_PROXY: 'on', LOG_LEVEL: 'silent' })
  const file = sqlitePathIn(config.dataDir)
  let database = databaseUrl ? openDatabase({ databaseUrl, poolSize: 10 }) : openDatabase({ sqlitePath: file })
  await migrateToLatest(database.db, database.dialect)
  const t0 = Date.now()
  if (databaseUrl) {
    await seedPostgres(database.db, require('kysely').sql)
  } else {
    await database.close()

    // the bulk of the data in plain SQL
    const Sqlite = require('better-sqlite3')
    const raw = new Sqlite(file)
    raw.pragma('journal_mode = WAL')
    raw.pragma('foreign_keys = ON')
    const now = Date.now()
    const iso = ms => new Date(ms).toISOString()
    raw.transaction(() => {
      raw.prepare("insert into users (id, user_name, nickname, role, created_at, updated_at) values (1, 'bench', 'Bench', 'shopper', ?, ?)").run(iso(now), iso(now))
      raw.prepare("insert into ledger_transactions (id, kind, reference, user_id, created_at) values (1, 'purchase', 'bench', 1, ?)").run(iso(now))
      const series = raw.prepare(`insert into series (id, name, name_en, description, description_en, cover, price_cents, case_size, hidden_ppm, status, created_at, updated_at)
      values (?, ?, ?, '', '', '/media/art/1f381.webp', ?, 12, ?, ?, ?, ?)`)
      const design = raw.prepare(`insert into designs (series_id, name, name_en, rarity, image, reference_value_cents, recycle_value_cents, sort, created_at)
      values (?, ?, ?, ?, '/media/art/1f381.webp', 1000, 100, ?, ?)`)
      const kase = raw.prepare("insert into cases (id, series_id, size, commit_hash, arrangement, salt, status, created_at) values (?, ?, 12, 'x', '[]', 'x', 'sold_out', ?)")
      for (let i = 1; i <= SERIES; i++) {
        const a = i % ZH_A.length
        const b = Math.floor(i / ZH_A.length) % ZH_B.length
        const hidden = i % 3 === 0
        const at = iso(now - (SERIES - i) * 60_000)
        series.run(i, `${ZH_A[a]}${ZH_B[b]} ${i}`, `${EN_A[a]} ${EN_B[b]} ${i}`, 500 + (i * 7919) % 19500, hidden ? 83333 : 0, i % 20 === 0 ? 'retired' : 'on_sale', at, at)
        design.run(i, '常规', 'Regular', 'regular', 1, at)
        if (i % 2 === 0) design.run(i, '稀有', 'Rare', 'rare', 2, at)
        if (hidden) design.run(i, '隐藏', 'Hidden', 'hidden', 3, at)
        kase.run(i, i, at)
      }
      // 1,000,000 boxes: purchases of 1 to 4 boxes over the last 14 days, popular series more often
      const purchase = raw.prepare('insert into purchases (user_id, case_id, series_id, slots, total_cents, credit_cents, cash_cents, tx_id, created_at) values (1, ?, ?, ?, 100, 0, 100, 1, ?)')
      let boxes = 0
      let n = 0
      while (boxes < BOXES) {
        n++
        const count = Math.min(1 + (n % 4), BOXES - boxes)
        const s = 1 + Math.floor(SERIES * Math.pow(((n * 2654435761) % 4294967296) / 4294967296, 2))
        purchase.run(s, s, JSON.stringify(Array.from({ length: count }, (_, k) => k + 1)), iso(now - ((n * 40503) % (14 * DAY))))
        boxes += count
      }
    })()
    raw.close()
    database = openDatabase({ sqlitePath: file })
  }
  const seeded = Date.now() - t0
  const db = database.db
  const clock = () => Date.now()
  const t1 = Date.now()
  await db.transaction().execute(async trx => {
    for (let i = 1; i <= SERIES; i++) await indexSeries(trx, i)
    for (let i = 1; i <= SERIES; i++) {
      await setSeriesTags(trx, clock, i, [{ zh: `主题${i % TAGS}`, en: `Theme ${i % TAGS}` }, ...(i % 3 ? [{ zh: `主题${(i * 7) % TAGS}`, en: `Theme ${(i * 7) % TAGS}` }] : [])])
    }
  })
  const indexed = Date.now() - t1
  // PostgreSQL: statistics and the visibility map for the rows just written (autovacuum would, later)
  if (databaseUrl) await require('kysely').sql.raw('vacuum analyze').execute(db)
  const tagIds = (await db.selectFrom('theme_tags').select('id').execute()).map(r => Number(r.id))

  const app = await buildApp({ config, database, maintenance: false, logger: false })
  timeRequests(app, [`${PREFIX}/api/seriesList`, `${PREFIX}/api/seriesSuggest`])
  await app.listen({ port: 0, host: '127.0.0.1' })
  control(async () => { await app.close(); await database.close() })
  process.send({ type: 'ready', port: app.server.address().port, tagIds, seededMs: seeded, indexedMs: indexed })
}

// ---- parent ----------------------------------------------------------------------------------------

/** The searches shoppers make, in turn. */
function searches (tagIds) {
  const full = s => s.replace(/[A-Za-z]/g, ch => String.fromCharCode(ch.charCodeAt(0) + 0xfee0))
  const out = []
  for (let i = 0; i < 200; i++) {
    const a = i % ZH_A.length
    const b = i % ZH_B.length
    const word = [ZH_A[a], EN_A[a].toLowerCase(), full(EN_B[b]), `${ZH_A[a]}${ZH_B[b]}`, `${EN_A[a]} ${EN_B[b]}`.toUpperCase()][i % 5]
    const tag = tagIds[i % tagIds.length]
    const page = 1 + (i % 3)
    out.push([
      { q: word },
      { q: word, sort: 'popular' },
      { priceMinCents: 3000, priceMaxCents: 5999, sort: 'price_asc', page },
      { rarity: 'rare', hasHidden: true, sort: 'new', page },
      { tagIds: [tag], sort: 'popular', page },
      { q: word, tagIds: [tag], priceMaxCents: 9999, sort: 'price_desc' },
      { sort: 'popular', page },
      { hasHidden: false, sort: 'price_desc', page }
    ][i % 8])
  }
  return out.map(b => JSON.stringify({ page: 1, size: 20, ...b }))
}

async function main () {
  const seconds = Number(arg('seconds', 8))
  const connections = Number(arg('connections', 10))
  const rounds = Number(arg('rounds', 3))
  const which = arg('db', 'sqlite')
  const autocannon = require('autocannon')
  let postgres = null
  if (which === 'postgres') {
    postgres = await require('./support/postgres').startPostgres()
    if (!postgres) throw new Error('no PostgreSQL binaries here')
    await postgres.createDatabase('bench_search')
    await postgres.createDatabase('bench_bare')
    console.log(postgres.settings)
  }
  const load = os.loadavg().map(x => x.toFixed(2)).join(', ')
  console.log(`series search on ${which}: ${SERIES} series, ${BOXES} boxes sold; ${connections} connections, ${rounds} rounds of ${seconds} s; load average ${load}`)

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-'))
  const shop = startChild(__filename, ['--shop', dir, postgres ? postgres.url('bench_search') : '-'], 30 * 60 * 1000)
  const bare = startChild(__filename, postgres ? ['--bare-postgres', postgres.url('bench_bare')] : ['--bare'], 30 * 60 * 1000)
  try {
    const s = await shop.next()
    const b = await bare.next()
    console.log(`data written in ${(s.seededMs / 1000).toFixed(1)} s, search rows (indexSeries, tags) in ${(s.indexedMs / 1000).toFixed(1)} s`)
    const bodies = searches(s.tagIds)
    let k = 0
    const shopRun = (duration, counter, url = '/api/seriesList', make = () => bodies[k++ % bodies.length]) => runCannon(autocannon, {
      url: `http://127.0.0.1:${s.port}`,
      connections,
      duration,
      requests: [{ method: 'POST', path: `${PREFIX}${url}`, headers: { 'content-type': 'application/json' }, setupRequest: req => ({ ...req, body: make() }), onResponse: counter.onResponse }]
    })
    let m = 0
    const bareRun = (duration, counter) => runCannon(autocannon, {
      url: `http://127.0.0.1:${b.port}`,
      connections,
      duration,
      requests: [{ method: 'POST', path: '/bare', headers: { 'content-type': 'application/json' }, setupRequest: req => ({ ...req, body: JSON.stringify({ min: 100 + (m++ * 131) % 19900 }) }), onResponse: counter.onResponse }]
    })
    // warm up both (the first "popular" counts the week's sales)
    await bareRun(WARMUP_SECONDS, codeCounter())
    await shopRun(WARMUP_SECONDS, codeCounter())

    const results = []
    for (let r = 0; r < rounds; r++) {
      const bc = codeCounter()
      await resetTimes(bare)
      const br = summary(await bareRun(seconds, bc), bc)
      br.server = await timesOf(bare)
      const sc = codeCounter()
      await resetTimes(shop)
      const sr = summary(await shopRun(seconds, sc), sc)
      sr.server = await timesOf(shop)
      results.push({ bare: br, shop: sr, ratio: sr.rps / br.rps })
      console.log(`round ${r + 1}: bare ${br.rps.toFixed(0)}/s p99 ${br.p99} ms | search ${sr.rps.toFixed(0)}/s p99 ${sr.p99} ms (server p50 ${sr.server.p50.toFixed(2)} ms, p99 ${sr.server.p99.toFixed(2)} ms) | ${(sr.rps / br.rps).toFixed(2)}x | codes ${JSON.stringify(sr.codes)}`)
    }
    const med = xs => quantile(xs, 0.5)
    const sc = codeCounter()
    const typed = ['星', 'sta', 'ｐａｒ', '海洋', 'mecha q', 'garden 1']
    let t = 0
    await resetTimes(shop)
    const sg = summary(await shopRun(seconds, sc, '/api/seriesSuggest', () => JSON.stringify({ q: typed[t++ % typed.length] })), sc)
    sg.server = await timesOf(shop)

    const row = {
      bareRps: med(results.map(r => r.bare.rps)),
      bareP99: med(results.map(r => r.bare.p99)),
      rps: med(results.map(r => r.shop.rps)),
      p99: med(results.map(r => r.shop.p99)),
      serverP50: med(results.map(r => r.shop.server.p50)),
      serverP99: med(results.map(r => r.shop.server.p99)),
      ratio: med(results.map(r => r.ratio)),
      ratios: results.map(r => r.ratio.toFixed(2))
    }
    const bad = results.some(r => Object.keys(r.shop.codes).some(c => c !== '200') || r.shop.errors)
    console.log('')
    console.log(`| search | ${row.rps.toFixed(0)}/s, p99 ${row.p99} ms | bare ${row.bareRps.toFixed(0)}/s, p99 ${row.bareP99} ms | ${row.ratio.toFixed(2)}x (${row.ratios.join(', ')}) | server p50 ${row.serverP50.toFixed(2)} ms, p99 ${row.serverP99.toFixed(2)} ms |`)
    console.log(`| suggestions | ${sg.rps.toFixed(0)}/s, p99 ${sg.p99} ms | | | server p50 ${sg.server.p50.toFixed(2)} ms, p99 ${sg.server.p99.toFixed(2)} ms; codes ${JSON.stringify(sg.codes)} |`)
    console.log(`load average at the end: ${os.loadavg().map(x => x.toFixed(2)).join(', ')}`)
    const met = row.p99 <= GOAL.p99Ms && !bad
    console.log(met ? `goal met: p99 ${row.p99} ms <= ${GOAL.p99Ms} ms` : `goal missed (p99 ${row.p99} ms, goal ${GOAL.p99Ms} ms${bad ? '; some answers were not 200' : ''})`)
    process.exitCode = met ? 0 : 1
  } finally {
    await shop.stop()
    await bare.stop()
    fs.rmSync(dir, { recursive: true, force: true })
    if (postgres) await postgres.stop()
  }
}

if (process.argv[2] === '--shop') serveShop(process.argv[3], process.argv[4] === '-' ? null : process.argv[4]).catch(e => { console.error(e); process.exit(1) })
else if (process.argv[2] === '--bare-postgres') serveBarePostgres(process.argv[3]).catch(e => { console.error(e); process.exit(1) })
else if (process.argv[2] === '--bare') serveBare().catch(e => { console.error(e); process.exit(1) })
else main().catch(e => { console.error(e); process.exit(1) })
