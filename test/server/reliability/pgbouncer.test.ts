/**
 * The server behind pgbouncer in transaction mode (issue 25): the pooler is real (Debian's pgbouncer,
 * support/pgbouncer.ts) and as strict as it is in production, and the shop works through it: two API
 * processes start (migrating through it), share sessions, and keep their row locks and idempotency
 * keys when their transactions take turns on three server connections. The money properties run
 * through it too (money-properties.test.ts, "postgres through pgbouncer").
 */
import pg from 'pg'
import { testDialects } from '../support/db'
import { openDatabase, type Db } from '../../../server/src/db'
import { prepared } from '../../../server/src/db/prepared'
import { invariantViolations } from '../support/invariants'
import { call, newShopper, newStore, ok, startServer, type ServerProcess, type Store } from '../support/server-process'
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer'

const onPostgres = testDialects().includes('postgres') && process.env.PGBOUNCER_TESTS !== 'off'
const describeOnPostgres = onPostgres ? describe : describe.skip

describeOnPostgres('pgbouncer in transaction mode', () => {
  let bouncer: PgBouncer
  let store: Store
  beforeAll(async () => {
    bouncer = await startPgBouncer({ poolSize: 3 })
    store = await newStore('postgres')
  }, 60000)
  afterAll(async () => {
    await store?.drop()
    await bouncer?.stop()
  })

  test('the pooler is strict: a connection is lent per transaction, and what a session keeps goes astray', async () => {
    const config = await bouncer.show('CONFIG')
    expect(config.find(r => r.key === 'pool_mode')?.value).toBe('transaction')

    // ten clients, each in a transaction at once: they get no more than the 3 server connections
    const url = bouncer.via(store.databaseUrl!)
    const clients = await Promise.all(Array.from({ length: 10 }, async () => { const c = new pg.Client({ connectionString: url }); await c.connect(); return c }))
    try {
      const pids = await Promise.all(clients.map(async c => {
        await c.query('begin')
        const r = await c.query('select pg_backend_pid() as pid, pg_sleep(0.2)')
        await c.query('commit')
        return r.rows[0].pid as number
      }))
      expect(new Set(pids).size).toBeLessThanOrEqual(3)
      expect(new Set(pids).size).toBeGreaterThanOrEqual(1)

      // the control: a named prepared statement lives on one server connection; once another client
      // holds that connection, the statement's next run lands on a connection that never prepared it.
      // (This is why the server is told DATABASE_PREPARED_STATEMENTS=off behind this pooler, and why
      // server/src/db/named.ts has a safety net for when it is not: the next test.)
      const [a, b] = clients
      await a.query({ name: 'kept_on_a_session', text: 'select 1 as one' })
      const held = b.query('begin').then(() => b.query('select pg_sleep(0.5)'))
      await new Promise(r => setTimeout(r, 100))
      const others = clients.slice(2, 3).map(c => c.query('begin').then(() => c.query('select pg_sleep(0.5)')))
      await new Promise(r => setTimeout(r, 100))
      const again = await a.query({ name: 'kept_on_a_session', text: 'select 1 as one' }).then(() => 'ran', (err: Error) => err.message)
      await held
      await Promise.all(others)
      await b.query('commit')
      await clients[2].query('commit')
      expect(again).toMatch(/prepared statement "kept_on_a_session" does not exist/)
    } finally {
      await Promise.all(clients.map(c => c.end().catch(() => undefined)))
    }
  }, 30000)

  describe('two API processes through it', () => {
    let a: ServerProcess
    let b: ServerProcess
    beforeAll(async () => {
      // pgbouncer 1.18 cannot carry named statements (docs/scaling.md)
      const env = { DATABASE_URL: bouncer.via(store.databaseUrl!), DATABASE_PREPARED_STATEMENTS: 'off' }
      a = await startServer(store, env) // migrates and seeds through the pooler
      b = await startServer(store, env)
    }, 120000)
    afterAll(async () => {
      await a?.stop()
      await b?.stop()
    })

    const shopper = (name: string, via: ServerProcess) => newShopper(via.origin, name, 'bouncer-pw')

    test('a burst of purchases of one case from six shoppers on two processes: each slot sold once, each key applied once, the books hold', async () => {
      const buyers = await Promise.all(Array.from({ length: 6 }, (_, i) => shopper(`bouncer_${i}`, i % 2 ? b : a)))
      const seriesId = (await ok(call(a.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'series')).list[0].id
      let sold = 0
      let refused = 0
      for (let round = 0; round < 6; round++) {
        const current = await ok(call(a.origin, 'POST', '/api/caseCurrent', { seriesId }, buyers[0].token), 'case')
        const free = current.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
        if (!free.length) continue
        // every shopper wants the same first free slot, and sends its request twice (to A and to B)
        const slot = free[0]
        const bodies = buyers.map((_s, i) => ({ caseId: current.caseId, slots: [slot], acknowledged: true, idempotencyKey: `bouncer-${round}-${i}` }))
        const answers = await Promise.all(buyers.flatMap((s, i) => [a, b].map(via => call(via.origin, 'POST', '/api/casePurchase', bodies[i], s.token))))
        const codes = answers.map(x => x.body?.code)
        expect(codes.every(c => c === 200 || c === 409)).toBe(true)
        // one shopper got the slot (its two copies: the purchase, or its replay)
        const winners = new Set(answers.flatMap((x, k) => x.body?.code === 200 ? [Math.floor(k / 2)] : []))
        expect(winners.size).toBe(1)
        sold++
        refused += codes.filter(c => c === 409).length
      }
      expect(sold).toBeGreaterThan(0)
      expect(refused).toBeGreaterThan(0)

      const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
      try {
        const rows = await handle.db.selectFrom('purchases').select(['case_id', 'slots']).execute()
        const seen = new Set<string>()
        for (const r of rows) {
          for (const s of JSON.parse(r.slots) as number[]) {
            const key = `${r.case_id}:${s}`
            expect(seen.has(key)).toBe(false)
            seen.add(key)
          }
        }
        expect(rows.length).toBe(sold)
        expect(await invariantViolations(handle.db)).toEqual([])
      } finally {
        await handle.close()
      }
      // and the pool stayed the pool: never more than 3 server connections to the database
      const servers = (await bouncer.show('SERVERS')).filter(r => r.database === new URL(store.databaseUrl!).pathname.slice(1))
      expect(servers.length).toBeLessThanOrEqual(3)
    }, 120000)

    test('a session made on A works on B, and a logout on B ends it on A', async () => {
      const s = await shopper('bouncer_session', a)
      expect((await ok(call(b.origin, 'GET', '/getUserInfo', undefined, s.token), 'B')).id).toBe(s.id)
      await ok(call(b.origin, 'GET', '/logout', undefined, s.token), 'logout')
      expect((await call(a.origin, 'GET', '/getUserInfo', undefined, s.token)).body?.code).toBe(401)
    }, 60000)
  })

  // after the processes above: they migrated the database
  test('a server not told DATABASE_PREPARED_STATEMENTS=off: the statement that went astray is sent again unnamed, naming stops, the operator is told', async () => {
    const url = bouncer.via(store.databaseUrl!)
    const warnings: string[] = []
    const handle = openDatabase({ databaseUrl: url, poolSize: 1, onWarning: m => warnings.push(m) })
    const holders = await Promise.all(Array.from({ length: 2 }, async () => { const c = new pg.Client({ connectionString: url }); await c.connect(); return c }))
    const accounts = prepared((db: Db, from: number) => db.selectFrom('users').select('id').where('id', '>=', from).orderBy('id').limit(1))
    try {
      const first = await accounts.first(handle.db, 0)
      expect(first).toBeDefined()
      expect(handle.namedStatements).toMatchObject({ enabled: true, named: 1 })
      // as in the control above: the server connection that prepared it is lent to others meanwhile
      const [h1, h2] = holders
      const held = h1.query('begin').then(() => h1.query('select pg_sleep(0.5)'))
      await new Promise(r => setTimeout(r, 100))
      const held2 = h2.query('begin').then(() => h2.query('select pg_sleep(0.5)'))
      await new Promise(r => setTimeout(r, 100))
      expect(await accounts.first(handle.db, 0)).toEqual(first)
      await Promise.all([held, held2])
      await h1.query('commit')
      await h2.query('commit')
      expect(handle.namedStatements).toMatchObject({ enabled: false, retried: 1, failedInTransaction: 0 })
      expect(warnings.join('\n')).toMatch(/DATABASE_PREPARED_STATEMENTS=off/)
      // unnamed from now on: it answers on whichever connection it is lent
      for (let i = 0; i < 5; i++) expect(await accounts.first(handle.db, 0)).toEqual(first)
      expect(handle.namedStatements).toMatchObject({ named: 1, retried: 1 })
    } finally {
      await Promise.all(holders.map(c => c.end().catch(() => undefined)))
      await handle.close()
    }
  }, 30000)
})
