/**
 * Backup drill (issue 26 item 1), on SQLite and on PostgreSQL, with the real server and the real
 * commands (`npm run backup` / `npm run restore` run server/src/ops/*.ts exactly so):
 *  - three backups taken one after another in the middle of a purchase burst each restore beside the
 *    original (SQLite: a new data directory; PostgreSQL: a new database on the same server); on each copy
 *    the books balance, every purchase answered before the backup began, and before the instant its
 *    manifest says the snapshot was taken, is there, and every purchase in it is the original's; a
 *    server started on the first copy answers a shopper with the balance the copy holds;
 *  - a restore into a target that holds anything is refused without --force, and changes nothing;
 *  - a damaged backup (one byte flipped anywhere: a tar header, the manifest, SHA256SUMS, the database,
 *    the padding, the end; or cut short; or not a backup at all) is refused before anything is touched,
 *    even with --force; so is a backup of the other database kind, and a missing file;
 *  - --force is refused while a server uses the target, and once it is stopped replaces what it holds
 *    with the backup (a purchase made after the backup is gone, those made before are there).
 */
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import sharp from 'sharp'
import { testDialects } from '../support/db'
import { openDatabase, sqlitePathIn } from '../../../server/src/db'
import { invariantViolations } from '../support/invariants'
import { TOPUP_MAX_CENTS } from '../../../types/limits'
import { call, compiledEntry, newShopper, newStore, ok, startServer, type Answer, type ServerProcess, type Store } from '../support/server-process'

const ROOT = path.resolve(__dirname, '../../..')
const SHOPPERS = 4
const LOOPS_PER_SHOPPER = 2
/** Purchases a loop makes at most (the money its shopper has); the pace below makes them last until the backups are done. */
const MAX_PER_LOOP = 140
/**
 * Once the backups have started, a loop sends one purchase per PACE_MS at most (the restores then
 * check a few hundred purchases, not a thousand), and once only RESERVE
 * purchases are left, one per SLOW_PACE_MS: the burst then lasts well over a minute, whatever the
 * machine's speed (unpaced, a fast machine sold all 1,120 in 8 s, before the third backup's snapshot).
 */
const PACE_MS = 400
const RESERVE = 20
const SLOW_PACE_MS = 2000
/** Top-ups of 5,000 yuan a shopper makes: money for all of its loops' purchases (280 x 69 yuan < 20,000). */
const TOPUPS = 4
/** Purchases answered 200 before the first backup starts. */
const BACKUP_AFTER = 12
/** Backups taken one after another during the burst (each a chance to catch a copy that misses recent commits). */
const BACKUPS = 3

interface Run { code: number | null; stdout: string; stderr: string; ms: number }

/** `npm run backup|restore`, compiled (node dist/server-test/server/src/ops/<command>.js), on `env`. */
function ops (command: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<Run> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [compiledEntry(`ops/${command}`), ...args], {
      cwd: ROOT, env: { ...process.env, PG_BIN_DIR: '', ...env }, stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => { stdout += String(d) })
    child.stderr.on('data', d => { stderr += String(d) })
    const timer = setTimeout(() => child.kill('SIGKILL'), 40000)
    child.on('error', reject)
    child.on('close', code => { clearTimeout(timer); resolve({ code, stdout, stderr, ms: Date.now() - started }) })
  })
}

interface Shopper { id: number; token: string }

const shopper = (origin: string, name: string): Promise<Shopper> => newShopper(origin, name, 'drill-pw-1', { amountCents: TOPUP_MAX_CENTS, topUps: TOPUPS })

/** One purchase of one free slot of a series' current case, with an idempotency key. */
async function buy (origin: string, s: Shopper, seriesId: number, key: string, n: number): Promise<Answer> {
  const current = await ok(call(origin, 'POST', '/api/caseCurrent', { seriesId }, s.token), 'caseCurrent')
  const free = current.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
  return call(origin, 'POST', '/api/casePurchase', { caseId: current.caseId, slots: [free[(n * 7) % Math.max(free.length, 1)] ?? 1], acknowledged: true, idempotencyKey: key }, s.token)
}

/** A small noisy PNG, as a shopper's screenshot would be (different every time). */
function picture (): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#c84', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer()
}

/** An upload through the shop's own route (multipart, field `file`); answers the URL it is served at. */
async function upload (origin: string, token: string, bytes: Buffer): Promise<string> {
  const form = new FormData()
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'screenshot.png')
  const res = await fetch(`${origin}/dev-api/api/upload/image`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form, signal: AbortSignal.timeout(20000) })
  const body = await res.json() as { code: number; data: { url: string } }
  if (body.code !== 200) throw new Error(`upload: ${JSON.stringify(body)}`)
  return body.data.url
}

function peek (store: Store) {
  return openDatabase({ sqlitePath: store.sqlitePath, databaseUrl: store.databaseUrl, poolSize: 2 })
}

/** Queries on one connection to `url`, closed after `fn`. */
async function withPg<T> (url: string, fn: (query: <R extends pg.QueryResultRow>(q: string) => Promise<R[]>) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try { return await fn(async q => (await c.query(q)).rows) } finally { await c.end() }
}

/**
 * What a target holds, to see that a refused restore changed nothing: SQLite, the data directory's
 * entries and the database's bytes; PostgreSQL, every relation and every table's row count.
 */
async function targetState (store: Store): Promise<string> {
  if (store.sqlitePath) {
    const dir = path.dirname(store.sqlitePath)
    const entries = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []
    const sha = fs.existsSync(store.sqlitePath) ? createHash('sha256').update(fs.readFileSync(store.sqlitePath)).digest('hex') : null
    return JSON.stringify({ entries, sha })
  }
  // one connection for all of it (it was one per table, each a connection and its authentication)
  return withPg(store.databaseUrl!, async query => {
    const relations = await query<{ name: string; kind: string }>("select c.relname as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' order by 1")
    const counts: Record<string, number> = {}
    for (const r of relations.filter(x => x.kind === 'r')) counts[r.name] = Number((await query<{ n: string }>(`select count(*) as n from public."${r.name}"`))[0].n)
    return JSON.stringify({ relations, counts })
  })
}

/** The members of a tar archive (name, where its bytes start, its size), read here independently of the code under test. */
function tarMembers (buf: Buffer): Array<{ name: string; header: number; offset: number; size: number }> {
  const out: Array<{ name: string; header: number; offset: number; size: number }> = []
  for (let pos = 0; pos + 512 <= buf.length && buf[pos] !== 0;) {
    const name = buf.toString('ascii', pos, pos + 100).replace(/\0.*$/s, '')
    const size = parseInt(buf.toString('ascii', pos + 124, pos + 135), 8)
    out.push({ name, header: pos, offset: pos + 512, size })
    pos += 512 + Math.ceil(size / 512) * 512
  }
  return out
}

const oneLine = (r: Run) => r.stderr.trim().split('\n').filter(l => !l.startsWith('npm ')).length === 1

describe.each(testDialects())('backup drill on %s', (dialect) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-drill-'))
  const files = Array.from({ length: BACKUPS }, (_, i) => path.join(work, `drill-${i + 1}.tar`))
  const file = files[0]
  const stores: Store[] = []
  let original: Store
  let copy: Store
  let server: ServerProcess | null = null
  let shoppers: Shopper[] = []
  let answeredBefore: string[] = []
  let purchasesInFirstBackup = -1
  const afterKey = `drill-${dialect}-after-backup`
  const figures: Record<string, number | string> = {}

  const store = async () => { const s = await newStore(dialect); stores.push(s); return s }

  beforeAll(async () => {
    original = await store()
    copy = await store()
  })
  afterAll(async () => {
    await server?.stop()
    for (const s of stores) await s.drop()
    fs.rmSync(work, { recursive: true, force: true })
    console.log(`backup drill on ${dialect}: ${JSON.stringify(figures)}`)
  })

  test(`${BACKUPS} backups taken one after another during a purchase burst restore beside the original: the books balance, every purchase answered before each is there`, async () => {
    let t = Date.now()
    server = await startServer(original)
    const origin = server.origin
    shoppers = await Promise.all(Array.from({ length: SHOPPERS }, (_, i) => shopper(origin, `drill_${dialect}_${i}`)))
    const series = (await ok(call(origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'seriesList')).list.map((x: { id: number }) => x.id)
    // media: uploaded images live in the database, so the backup must carry them
    const image = await picture()
    const imageUrl = await upload(origin, shoppers[2].token, image)
    figures.setupMs = Date.now() - t

    // the burst: loops of purchases that run until the backups are done; the first backup starts once
    // BACKUP_AFTER purchases are answered (the keys answered by then are noted at that moment), each
    // next one as soon as the one before it has finished
    t = Date.now()
    const paid: Array<{ key: string; at: number }> = []
    const state: { backups: Promise<Run[]> | null } = { backups: null }
    let backupsDone = false
    // the burst goes on until a purchase is answered after the last backup ended: the shop was still
    // selling at every snapshot however the backups and the purchases fell in time
    let backupsEndedAt = Infinity
    let soldAfterBackups = false
    let duringBackups = 0
    let sent = 0
    const backUp = async () => {
      const runs: Run[] = []
      try {
        for (const f of files) runs.push(await ops('backup', ['--out', f], original.env))
      } finally {
        backupsDone = true
        backupsEndedAt = Date.now()
      }
      return runs
    }
    const loop = async (s: Shopper, n: number) => {
      // eslint-disable-next-line no-unmodified-loop-condition -- `backupsDone` is set by the backup loop running alongside
      for (let i = 0; i < MAX_PER_LOOP && !(backupsDone && soldAfterBackups); i++) {
        const key = `drill-${dialect}-${s.id}-${n}-${i}`
        const began = Date.now()
        const sentDuring = state.backups !== null
        sent++
        const answer = await buy(origin, s, series[(i + n) % series.length], key, i)
        if (answer.ok && answer.body?.code === 200) {
          paid.push({ key, at: Date.now() })
          if (Date.now() > backupsEndedAt) soldAfterBackups = true
          if (sentDuring && !backupsDone) duringBackups++
        }
        if (!state.backups && paid.length >= BACKUP_AFTER) {
          answeredBefore = paid.map(p => p.key)
          state.backups = backUp()
        }
        if (state.backups) await pace(began, MAX_PER_LOOP - i - 1 > RESERVE ? PACE_MS : SLOW_PACE_MS)
      }
    }
    /** Waits until `ms` after `began`, or until the backups are done. */
    const pace = async (began: number, ms: number) => {
      // eslint-disable-next-line no-unmodified-loop-condition -- `backupsDone` is set by the backup loop running alongside
      while (!backupsDone && Date.now() - began < ms) await new Promise(resolve => setTimeout(resolve, 20))
    }
    await Promise.all(shoppers.flatMap(s => Array.from({ length: LOOPS_PER_SHOPPER }, (_, n) => loop(s, n))))
    if (!state.backups) throw new Error(`only ${paid.length} purchases were answered: no backup was started`)
    const runs = await state.backups
    figures.burstMs = Date.now() - t
    figures.backupMs = runs.map(r => r.ms).join('/')
    figures.sent = sent
    figures.paid = paid.length
    figures.answeredBeforeFirstBackup = answeredBefore.length
    figures.paidDuringBackups = duringBackups
    for (const [i, made] of runs.entries()) {
      expect(made.stderr.trim()).toBe('')
      expect(made.code).toBe(0)
      expect(made.stdout).toContain(`Backup written: ${files[i]}`)
      expect(fs.statSync(files[i]).mode & 0o077).toBe(0)
    }

    // one purchase surely after the backups: a --force restore must take it away again (last test)
    expect((await buy(origin, shoppers[0], series[0], afterKey, 3)).body?.code).toBe(200)

    // each restored beside the original (the first into `copy`, used by the tests below)
    t = Date.now()
    const inBackup: number[] = []
    const beforeSnapshot: number[] = []
    const restoreMs: number[] = []
    let walletCents = 0
    for (const [i, f] of files.entries()) {
      // the manifest's createdAt promises that every commit before it is in the backup: each purchase
      // answered before it (answered, so committed) must be there, not only those answered before the start
      const archive = fs.readFileSync(f)
      const manifest = tarMembers(archive)[0]
      const createdAt = Date.parse(JSON.parse(archive.toString('utf8', manifest.offset, manifest.offset + manifest.size)).createdAt)
      expect(createdAt).toBeGreaterThan(paid[BACKUP_AFTER - 1].at)
      const answeredBeforeSnapshot = paid.filter(p => p.at < createdAt).map(p => p.key)
      beforeSnapshot.push(answeredBeforeSnapshot.length)
      // the shop was still selling when the snapshot was taken
      expect(paid.some(p => p.at > createdAt)).toBe(true)

      const target = i === 0 ? copy : await store()
      const restored = await ops('restore', [f], target.env)
      restoreMs.push(restored.ms)
      expect(restored.stderr.trim()).toBe('')
      expect(restored.code).toBe(0)
      expect(restored.stdout).toContain(`Restored ${f}`)

      const db = peek(target)
      const live = peek(original)
      try {
        expect(await invariantViolations(db.db)).toEqual([])
        const keys = (await db.db.selectFrom('idempotency_keys').select('key').where('scope', '=', 'casePurchase').execute()).map(r => r.key)
        expect(answeredBefore.filter(k => !keys.includes(k))).toEqual([])
        expect(answeredBeforeSnapshot.filter(k => !keys.includes(k))).toEqual([])
        expect(keys).not.toContain(afterKey)
        // and nothing that is not the original's: each purchase of the copy is the original's, as it was
        const mine = await db.db.selectFrom('purchases').select(['id', 'user_id', 'case_id', 'slots', 'total_cents', 'tx_id']).orderBy('id').execute()
        const theirs = await live.db.selectFrom('purchases').select(['id', 'user_id', 'case_id', 'slots', 'total_cents', 'tx_id']).where('id', 'in', mine.map(p => p.id)).orderBy('id').execute()
        expect(theirs).toEqual(mine)
        inBackup.push(mine.length)
        if (i === 0) walletCents = Number((await db.db.selectFrom('wallets').select('cash_cents').where('user_id', '=', shoppers[1].id).executeTakeFirstOrThrow()).cash_cents)
      } finally {
        await db.close()
        await live.close()
      }
    }
    figures.answeredBeforeSnapshots = beforeSnapshot.join('/')
    figures.purchasesInBackups = inBackup.join('/')
    figures.restoreMs = restoreMs.join('/')
    purchasesInFirstBackup = inBackup[0]

    // the copy is a shop: a server on it is ready and knows the shopper (session, balance)
    const second = await startServer(copy)
    try {
      expect((await call(second.origin, 'GET', '/readyz')).body?.code).toBe(200)
      expect((await ok(call(second.origin, 'POST', '/api/walletBalance', {}, shoppers[1].token), 'walletBalance')).cashCents).toBe(walletCents)
      // and serves the uploaded image, byte for byte
      const served = await fetch(`${second.origin}${imageUrl}`)
      expect(served.status).toBe(200)
      expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true)
    } finally {
      await second.stop()
    }
    figures.checkMs = Date.now() - t
    // beside the e2e on 2 cores it took 28 s to set up, 45 s of burst and 105 s of checks: room for that
  }, 300000)

  test('a target that holds anything is refused without --force, and nothing changes', async () => {
    const before = await targetState(copy)
    const refused = await ops('restore', [file], copy.env)
    expect(refused.code).toBe(1)
    expect(oneLine(refused)).toBe(true)
    expect(refused.stderr).toMatch(/is not empty .*add --force to replace/)
    expect(await targetState(copy)).toBe(before)
  }, 90000)

  test('a damaged backup, a file that is no backup, and one of the other database are refused before anything is touched', async () => {
    const empty = await store()
    const emptyState = await targetState(empty)
    const good = fs.readFileSync(file)
    const members = tarMembers(good)
    expect(members.map(m => m.name)).toEqual(['manifest.json', 'SHA256SUMS', dialect === 'sqlite' ? 'shop.sqlite.gz' : 'shop.pgdump'])
    const [manifest, sums, database] = members
    const flips: Array<[string, number]> = [
      ['a header (the name)', manifest.header + 3],
      ['a header (the size)', database.header + 130],
      ['the manifest', manifest.offset + Math.floor(manifest.size / 2)],
      ['SHA256SUMS', sums.offset + 5],
      ['the database', database.offset + Math.floor(database.size / 2)],
      ['the padding', manifest.offset + manifest.size],
      ['the end', good.length - 1]
    ]
    expect(manifest.size % 512).not.toBe(0) // so that there is padding to damage
    const cases: Array<[string, Buffer]> = flips.map(([what, at]) => {
      const bad = Buffer.from(good)
      bad[at] ^= 0x01
      return [`one byte flipped in ${what}`, bad]
    })
    cases.push(['cut short', good.subarray(0, Math.floor(good.length / 1024) * 512)])
    cases.push(['not a backup', Buffer.from('hello, this is not a backup\n'.repeat(100))])
    // three at a time (each restore is a process of its own), each from a file of its own
    const results: Array<{ what: string; code: number | null; oneLine: boolean; damaged: boolean }> = []
    for (let i = 0; i < cases.length; i += 3) {
      results.push(...await Promise.all(cases.slice(i, i + 3).map(async ([what, bytes], j) => {
        const bad = path.join(work, `bad-${i + j}.tar`)
        fs.writeFileSync(bad, bytes)
        const r = await ops('restore', [bad, '--force'], empty.env)
        return { what, code: r.code, oneLine: oneLine(r), damaged: /is damaged or not a shop backup: .*nothing was changed/.test(r.stderr) }
      })))
    }
    expect(results).toEqual(cases.map(([what]) => ({ what, code: 1, oneLine: true, damaged: true })))
    expect(await targetState(empty)).toBe(emptyState)

    const missing = await ops('restore', [path.join(work, 'nowhere.tar')], empty.env)
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toBe(`restore: no such file: ${path.join(work, 'nowhere.tar')}`)

    // the other kind of database: refused before any connection, and the password is never shown
    if (dialect === 'sqlite' && process.env.DATABASE_URL) {
      const url = new URL(process.env.DATABASE_URL)
      url.password = 'drill-secret-pw'
      const r = await ops('restore', [file], { DATABASE_URL: url.toString() })
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('is a SQLite backup, but DATABASE_URL is set')
      expect(r.stderr).not.toContain('drill-secret-pw')
    }
    if (dialect === 'postgres') {
      const dir = fs.mkdtempSync(path.join(work, 'data-'))
      const r = await ops('restore', [file], { DATABASE_URL: '', DATA_DIR: dir })
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('is a PostgreSQL backup, but DATABASE_URL is not set')
      expect(fs.readdirSync(dir)).toEqual([])
      // a connection that fails says why, without the password
      const url = new URL(original.databaseUrl!)
      url.password = 'drill-secret-pw'
      url.pathname = `/missing_${randomBytes(4).toString('hex')}`
      const c = await ops('restore', [file], { DATABASE_URL: url.toString() })
      expect(c.code).toBe(1)
      expect(c.stderr).toContain('cannot connect to PostgreSQL')
      expect(c.stderr).not.toContain('drill-secret-pw')
    }
    // a backup never overwrites a file
    const exists = await ops('backup', ['--out', file], original.env)
    expect(exists.code).toBe(1)
    expect(exists.stderr).toContain('already exists')
    expect(fs.readFileSync(file).equals(good)).toBe(true)
  }, 180000)

  test('--force is refused while a server uses the target, then replaces what it holds with the backup', async () => {
    // a request first, so that the server holds a connection (its pool closes idle ones after 10 s)
    await ok(call(server!.origin, 'POST', '/api/walletBalance', {}, shoppers[0].token), 'walletBalance')
    const busy = await ops('restore', [file, '--force'], original.env)
    expect(busy.code).toBe(1)
    expect(oneLine(busy)).toBe(true)
    expect(busy.stderr).toMatch(dialect === 'sqlite' ? /is in use/ : /other session\(s\) are connected/)
    await server!.stop()
    server = null
    // refused, so the original still holds the purchase made after the backup
    const kept = peek(original)
    try {
      expect(await kept.db.selectFrom('idempotency_keys').select('key').where('key', '=', afterKey).execute()).toHaveLength(1)
    } finally {
      await kept.close()
    }

    const forced = await ops('restore', [file, '--force'], original.env)
    expect(forced.stderr.trim()).toBe('')
    expect(forced.code).toBe(0)
    const db = peek(original)
    try {
      expect(await invariantViolations(db.db)).toEqual([])
      const keys = (await db.db.selectFrom('idempotency_keys').select('key').where('scope', '=', 'casePurchase').execute()).map(r => r.key)
      expect(answeredBefore.filter(k => !keys.includes(k))).toEqual([])
      expect(keys).not.toContain(afterKey)
      const purchases = await db.db.selectFrom('purchases').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      expect(Number(purchases.n)).toBe(purchasesInFirstBackup)
    } finally {
      await db.close()
    }
    if (dialect === 'sqlite') expect(fs.readdirSync(path.dirname(sqlitePathIn(original.env.DATA_DIR))).filter(f => f.startsWith('.restore-'))).toEqual([])
  }, 180000)
})
