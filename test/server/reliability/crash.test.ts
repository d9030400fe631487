/**
 * Crash test (issue 7): the real server, a purchase burst from several shoppers over HTTP, `kill -9`
 * in the middle of it, a restart on the same database. Afterwards the books hold (support/
 * invariants.ts), every request whose answer arrived replays to the same answer (its key is stored with
 * its result), and every request whose answer was lost can be retried with its key: applied at most once.
 * Three rounds on SQLite and on PostgreSQL.
 */
import { testDialects } from '../support/db'
import { openDatabase } from '../../../server/src/db'
import { invariantViolations } from '../support/invariants'
import { TOPUP_PRODUCT_ID } from '../../../types/limits'
import { call, newStore, startServer, type Answer, type ServerProcess, type Store } from '../support/server-process'

const ROUNDS = 3
const SHOPPERS = 4
const PER_SHOPPER = 20
/** How many answers come back before the kill, per round: early, mid-burst, late. */
const KILL_AFTER = [3, 20, 45]

interface Shopper { id: number; token: string }
interface Sent { shopper: Shopper; body: Record<string, unknown>; answer: Answer }

async function ok (answer: Promise<Answer>, what: string): Promise<any> {
  const a = await answer
  if (!a.ok || a.body?.code !== 200) throw new Error(`${what}: ${JSON.stringify(a)}`)
  return a.body.data
}

describe.each(testDialects())('kill -9 during a purchase burst on %s', (dialect) => {
  let store: Store
  let server: ServerProcess | null = null
  const figures = { rounds: 0, killedMidBurst: 0, sent: 0, answered: 0, inFlightAtKill: [] as number[], lost: 0, committedButLost: 0, replayedSame: 0, retriedLost: 0, retriedApplied: 0 }

  beforeAll(async () => { store = await newStore(dialect) })
  afterAll(async () => {
    await server?.kill9()
    await store.drop()
    console.log(`crash on ${dialect}: ${JSON.stringify(figures)}`)
  })

  test(`${ROUNDS} rounds: the books hold and replays answer the stored results`, async () => {
    server = await startServer(store)
    const shoppers: Shopper[] = []
    for (let i = 0; i < SHOPPERS; i++) {
      const login = await ok(call(server.origin, 'POST', '/login/register?table=user', { user_name: `crash_${dialect}_${i}`, password: 'crash-pw' }), 'register')
      const s = { id: login.user.id, token: login.token }
      await ok(call(server.origin, 'POST', '/api/ageVerify', { birthDate: '1990-01-01' }, s.token), 'ageVerify')
      shoppers.push(s)
    }
    const series = (await ok(call(server.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'seriesList')).list.map((x: { id: number }) => x.id)
    expect(series.length).toBeGreaterThan(0)
    let key = 0

    for (let round = 0; round < ROUNDS; round++) {
      figures.rounds++
      for (const s of shoppers) {
        const opId = await ok(call(server.origin, 'POST', '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: s.id }, s.token), 'order number')
        await ok(call(server.origin, 'POST', '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, opId, amountCents: 50000, channel: 'sandbox' }, s.token), 'create')
        await ok(call(server.origin, 'POST', '/api/sandboxPay', { opId }, s.token), 'pay')
      }
      const bodies: Array<{ shopper: Shopper; body: Record<string, unknown> }> = []
      for (const s of shoppers) {
        for (let i = 0; i < PER_SHOPPER; i++) {
          const seriesId = series[(i + round) % series.length]
          const current = await ok(call(server.origin, 'POST', '/api/caseCurrent', { seriesId }, s.token), 'caseCurrent')
          const free = current.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
          const slot = free.length ? free[(i * 7 + round) % free.length] : 1
          bodies.push({ shopper: s, body: { caseId: current.caseId, slots: [slot], acknowledged: true, idempotencyKey: `crash-${dialect}-${round}-${++key}` } })
        }
      }
      // the burst; the server is killed once a few answers are back, with the rest in flight
      let answered = 0
      const victim = server
      let killed: Promise<void> | null = null
      const sent: Sent[] = await Promise.all(bodies.map(async ({ shopper, body }) => {
        const answer = await call(victim.origin, 'POST', '/api/casePurchase', body, shopper.token)
        if (answer.ok && ++answered === KILL_AFTER[round % KILL_AFTER.length]) {
          figures.inFlightAtKill.push(bodies.length - answered)
          killed = victim.kill9()
        }
        return { shopper, body, answer }
      }))
      if (!killed) killed = victim.kill9()
      await killed
      figures.sent += sent.length
      const arrived = sent.filter(s => s.answer.ok)
      figures.answered += arrived.length
      figures.lost += sent.length - arrived.length
      // the kill landed mid-burst when answers were lost; on a fast machine the late round's last
      // answers can all leave before the kill arrives (that round then only checks the replays)
      if (sent.length > arrived.length) figures.killedMidBurst++

      server = await startServer(store)
      // requests whose answer was lost although their transaction had committed (the retry must not apply them twice)
      const lostKeys = sent.filter(s => !s.answer.ok).map(s => s.body.idempotencyKey as string)
      const committed = new Map<string, unknown>()
      const peek = openDatabase({ sqlitePath: store.sqlitePath, databaseUrl: store.databaseUrl, poolSize: 1 })
      try {
        if (lostKeys.length) {
          const rows = await peek.db.selectFrom('idempotency_keys').select(['key', 'response']).where('key', 'in', lostKeys).execute()
          for (const r of rows) committed.set(r.key, JSON.parse(r.response!))
        }
      } finally {
        await peek.close()
      }
      figures.committedButLost += committed.size
      for (const s of sent) {
        const again = await call(server.origin, 'POST', '/api/casePurchase', s.body, s.shopper.token)
        expect(again.ok).toBe(true)
        if (s.answer.ok && s.answer.body?.code === 200) {
          expect(again.body).toEqual(s.answer.body)
          figures.replayedSame++
        } else {
          expect([200, 409, 422]).toContain(again.body?.code)
          if (!s.answer.ok) figures.retriedLost++
          if (again.body?.code === 200) figures.retriedApplied++
          // applied before the kill although its answer was lost: the retry answers that stored result
          const first = committed.get(s.body.idempotencyKey as string)
          if (first !== undefined) expect(again.body).toMatchObject({ code: 200, data: first })
          // a second retry of an applied request answers its stored result
          if (again.body?.code === 200) expect((await call(server.origin, 'POST', '/api/casePurchase', s.body, s.shopper.token)).body).toEqual(again.body)
        }
      }
      const handle = openDatabase({ sqlitePath: store.sqlitePath, databaseUrl: store.databaseUrl, poolSize: 2 })
      try {
        expect(await invariantViolations(handle.db)).toEqual([])
        const applied = await handle.db.selectFrom('purchases').select('id').where('user_id', 'in', shoppers.map(s => s.id)).execute()
        const keys = await handle.db.selectFrom('idempotency_keys').select('key').where('key', 'like', `crash-${dialect}-%`).execute()
        expect(applied.length).toBe(keys.length) // each stored key stands for exactly one purchase
      } finally {
        await handle.close()
      }
    }
    expect(figures.killedMidBurst).toBeGreaterThanOrEqual(ROUNDS - 1)
  }, 300000)
})
