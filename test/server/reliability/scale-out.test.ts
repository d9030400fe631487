/**
 * Scale-out (issues 7 and 25): three API processes on one PostgreSQL, as behind a load balancer.
 * Sessions, rate limits, idempotency keys, slot races, withdrawals, combines and the PDF task queue hold
 * across them, because all of it lives in the database.
 */
import { testDialects } from '../support/db'
import { openDatabase } from '../../../server/src/db'
import { invariantViolations } from '../support/invariants'
import { RULES } from '../../../server/src/security/rules'
import { PDFDocument, rgb } from 'pdf-lib'
import { insertUser } from '../../../server/src/domain/account/users'
import { hashPassword } from '../../../server/src/security/passwords'
import { TOPUP_PRODUCT_ID } from '../../../types/shop'
import { call, newShopper, newStore, ok, startServer, type Answer, type ServerProcess, type Store } from '../support/server-process'

const describeOnPostgres = testDialects().includes('postgres') ? describe : describe.skip

describeOnPostgres('three API processes on one PostgreSQL', () => {
  let store: Store
  let a: ServerProcess
  let b: ServerProcess
  let c: ServerProcess
  beforeAll(async () => {
    store = await newStore('postgres')
    a = await startServer(store) // migrates and seeds first
    ;[b, c] = await Promise.all([startServer(store), startServer(store)])
  }, 120000)
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), c?.stop()])
    await store?.drop()
  })
  const books = async () => {
    const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
    try {
      return await invariantViolations(handle.db)
    } finally {
      await handle.close()
    }
  }

  const shopper = (name: string, via: ServerProcess) => newShopper(via.origin, name, 'scale-pw')

  test('a session made on A works on B; logging out on either ends it on the other', async () => {
    const s = await shopper('scale_session', a)
    expect((await ok(call(b.origin, 'GET', '/getUserInfo', undefined, s.token), 'B')).id).toBe(s.id)
    await ok(call(b.origin, 'GET', '/logout', undefined, s.token), 'logout')
    expect((await call(a.origin, 'GET', '/getUserInfo', undefined, s.token)).body?.code).toBe(401)
    // and the other way round: a new session, used on B, ended on A
    const again = await ok(call(b.origin, 'POST', '/login/passwd', { user_name: 'scale_session', password: 'scale-pw' }), 'login on B')
    expect((await ok(call(a.origin, 'GET', '/getUserInfo', undefined, again.token), 'A')).id).toBe(s.id)
    expect((await ok(call(b.origin, 'POST', '/api/walletBalance', {}, again.token), 'balance on B')).cashCents).toBe(100000)
    await ok(call(a.origin, 'GET', '/logout', undefined, again.token), 'logout on A')
    expect((await call(b.origin, 'GET', '/getUserInfo', undefined, again.token)).body?.code).toBe(401)
    expect((await call(b.origin, 'POST', '/api/walletBalance', {}, again.token)).body?.code).toBe(401)
    // the third process agrees with both
    expect((await call(c.origin, 'GET', '/getUserInfo', undefined, again.token)).body?.code).toBe(401)
    const third = await ok(call(c.origin, 'POST', '/login/passwd', { user_name: 'scale_session', password: 'scale-pw' }), 'login on C')
    expect((await ok(call(a.origin, 'GET', '/getUserInfo', undefined, third.token), 'A')).id).toBe(s.id)
  }, 60000)

  test('one code per phone number a minute, whichever process is asked', async () => {
    const phone = '13700137000'
    const first = await call(a.origin, 'GET', `/login/sms/code?phone=${phone}`)
    expect(first.body?.code).toBe(200)
    // at once through both: the minute's budget of that number is spent, on A as on B
    const next = await Promise.all([b, c, a, c].map(via => call(via.origin, 'GET', `/login/sms/code?phone=${phone}`)))
    expect(next.map(x => x.body?.code)).toEqual([429, 429, 429, 429])
  }, 60000)

  test('the password budget is one budget across both processes', async () => {
    await ok(call(a.origin, 'POST', '/login/register?table=user', { user_name: 'scale_guess', password: 'right-pw' }), 'register')
    const codes: number[] = []
    for (let i = 0; i < RULES.passwordPerAccountAndIp.limit + 3; i++) {
      const via = [a, b, c][i % 3]
      codes.push((await call(via.origin, 'POST', '/login/passwd', { user_name: 'scale_guess', password: `wrong-${i}` })).body!.code)
    }
    // all from 127.0.0.1: the per-account-and-IP budget (5) runs out, whichever process is asked
    expect(codes.filter(c => c === 401)).toHaveLength(RULES.passwordPerAccountAndIp.limit)
    expect(codes.slice(RULES.passwordPerAccountAndIp.limit).every(c => c === 429)).toBe(true)
  }, 60000)

  test('a purchase on B after a logout on A: B remembered the session, the purchase\'s statement refuses it (401), nothing moves', async () => {
    const s = await shopper('scale_logout_buy', a)
    const seriesId = (await ok(call(a.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'series')).list[0].id
    const buyOn = async (via: ServerProcess, key: string) => {
      const current = await ok(call(a.origin, 'POST', '/api/caseCurrent', { seriesId }, s.token), 'case')
      const slot = current.slots.find((x: { sold: boolean }) => !x.sold).slot
      return call(via.origin, 'POST', '/api/casePurchase', { caseId: current.caseId, slots: [slot], acknowledged: true, idempotencyKey: key }, s.token)
    }
    // B reads the session for this purchase and remembers it (domain/sessions.ts resolveRechecked)
    expect((await buyOn(b, `scale-logout-1-${Date.now()}`)).body?.code).toBe(200)
    const balance = (await ok(call(b.origin, 'POST', '/api/walletBalance', {}, s.token), 'balance')).cashCents
    await ok(call(a.origin, 'GET', '/logout', undefined, s.token), 'logout on A')
    const current = await ok(call(c.origin, 'POST', '/api/caseCurrent', { seriesId }), 'case')
    const free = current.slots.filter((x: { sold: boolean }) => !x.sold).length
    const key = `scale-logout-2-${Date.now()}`
    const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
    try {
      const caseId = current.caseId
      const slot = current.slots.find((x: { sold: boolean }) => !x.sold).slot
      const refused = await call(b.origin, 'POST', '/api/casePurchase', { caseId, slots: [slot], acknowledged: true, idempotencyKey: key }, s.token)
      expect(refused.body?.code).toBe(401)
      const wallet = await handle.db.selectFrom('wallets').select('cash_cents').where('user_id', '=', s.id).executeTakeFirstOrThrow()
      expect(Number(wallet.cash_cents)).toBe(balance)
      expect(await handle.db.selectFrom('idempotency_keys').select('key').where('user_id', '=', s.id).where('key', '=', key).execute()).toHaveLength(0)
      const after = await ok(call(c.origin, 'POST', '/api/caseCurrent', { seriesId }), 'case')
      if (after.caseId === caseId) expect(after.slots.filter((x: { sold: boolean }) => !x.sold).length).toBe(free)
    } finally {
      await handle.close()
    }
  }, 60000)

  test('one idempotency key sent to A, B and C at once is applied once, and all answer the same purchase', async () => {
    const s = await shopper('scale_key', a)
    const seriesId = (await ok(call(a.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'series')).list[0].id
    for (let round = 0; round < 5; round++) {
      const current = await ok(call(a.origin, 'POST', '/api/caseCurrent', { seriesId }, s.token), 'case')
      const slot = current.slots.find((x: { sold: boolean }) => !x.sold).slot
      const body = { caseId: current.caseId, slots: [slot], acknowledged: true, idempotencyKey: `scale-key-${round}-${Date.now()}` }
      const answers = (await Promise.all([a, b, c].map(via => call(via.origin, 'POST', '/api/casePurchase', body, s.token)))).map(x => x.body!)
      const applied = answers.filter(x => x.code === 200)
      expect(applied.length).toBeGreaterThanOrEqual(1)
      // a twin that lost the race answers the first result (or, while it is still running, a 409)
      for (const x of answers) if (x.code !== 200) expect(x.code).toBe(409)
      expect(new Set(applied.map(x => x.data.purchaseId)).size).toBe(1)
    }
    const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
    try {
      const purchases = await handle.db.selectFrom('purchases').select('id').where('user_id', '=', s.id).execute()
      expect(purchases).toHaveLength(5)
    } finally {
      await handle.close()
    }
  }, 60000)

  test('the warehouse across processes: shoppers on A, B and C race for a series stocked for three cases and buy exactly its boxes', async () => {
    // the demo operator: 3 regular and 1 rare design, three of each in the warehouse, on sale (through A)
    const op = (await ok(call(a.origin, 'POST', '/login/passwd', { user_name: 'operator', password: 'operator123' }), 'operator')).token
    const draft = await ok(call(a.origin, 'POST', '/api/operator/seriesSave', {
      title: { zh: '跨进程库存', en: 'Stock across processes' }, description: { zh: '一箱 4 盒', en: '4 a case' }, rules: { zh: '', en: '' },
      cover: null, priceCents: 1000, hiddenCasePpm: 0,
      designs: [0, 1, 2, 3].map(i => ({ name: { zh: `款${i}`, en: `Design ${i}` }, rarity: i === 3 ? 'rare' : 'regular', image: '/media/art/1f431.webp', referenceValueCents: 1500, recycleValueCents: 100 }))
    }, op), 'series')
    const counted = await ok(call(b.origin, 'POST', '/api/operator/stock', { seriesId: draft.id }, op), 'stock')
    await ok(call(c.origin, 'POST', '/api/operator/stockSave', { seriesId: draft.id, designs: counted.designs.map((d: { designId: number; stock: number }) => ({ designId: d.designId, stock: 3, was: d.stock })) }, op), 'stock save')
    await ok(call(a.origin, 'POST', '/api/operator/seriesPublish', { seriesId: draft.id }, op), 'publish')

    // the accounts are made in the database (the file's other tests use up the 10 sign-ups an hour that
    // one address has); each logs in, verifies its age and tops up through its own process
    const hash = await hashPassword('scale-pw')
    const buyers = await Promise.all(Array.from({ length: 9 }, async (_, i) => {
      const via = [a, b, c][i % 3]
      const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
      try {
        await insertUser(handle.db, () => Date.now(), { user_name: `scale_stock_${i}`, nickname: `Stock ${i}`, password_hash: hash })
      } finally {
        await handle.close()
      }
      const login = await ok(call(via.origin, 'POST', '/login/passwd', { user_name: `scale_stock_${i}`, password: 'scale-pw' }), 'login')
      await ok(call(via.origin, 'POST', '/api/ageVerify', { birthDate: '1990-01-01' }, login.token), 'ageVerify')
      const opId = await ok(call(via.origin, 'POST', '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: login.user.id }, login.token), 'order number')
      await ok(call(via.origin, 'POST', '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: login.user.id, opId, amountCents: 50000, channel: 'sandbox' }, login.token), 'create')
      await ok(call(via.origin, 'POST', '/api/sandboxPay', { opId }, login.token), 'pay')
      return { id: login.user.id as number, token: login.token as string }
    }))
    const soldOut: number[] = []
    await Promise.all(buyers.map(async (s, i) => {
      const via = [a, b, c][i % 3]
      for (let attempt = 0; attempt < 10; attempt++) {
        const current = await call(via.origin, 'POST', '/api/caseCurrent', { seriesId: draft.id }, s.token)
        if (current.body?.code === 409) { soldOut.push(i); return }
        const free = (current.body?.data.slots ?? []).filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
        if (!free.length) continue
        const other = [a, b, c][(i + attempt) % 3]
        const r = await call(other.origin, 'POST', '/api/casePurchase', { caseId: current.body!.data.caseId, slots: [free[attempt % free.length]], acknowledged: true, idempotencyKey: `scale-stock-${i}-${attempt}` }, s.token)
        expect([200, 409]).toContain(r.body?.code)
      }
    }))
    expect(soldOut.length).toBeGreaterThan(0)
    const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
    try {
      const sold = await handle.db.selectFrom('prizes').select(eb => eb.fn.countAll<number>().as('n')).where('series_id', '=', draft.id).executeTakeFirstOrThrow()
      expect(Number(sold.n)).toBe(12)
      const designs = await handle.db.selectFrom('designs').select(['stock', 'committed']).where('series_id', '=', draft.id).execute()
      expect(designs.map(d => [Number(d.stock), Number(d.committed)])).toEqual([[3, 3], [3, 3], [3, 3], [3, 3]])
    } finally {
      await handle.close()
    }
    expect((await ok(call(b.origin, 'POST', '/api/seriesDetail', { seriesId: draft.id }), 'detail')).soldOut).toBe(true)
    expect(await books()).toEqual([])
  }, 120000)

  test('parallel purchases of one slot through A, B and C: exactly one wins, and the books hold', async () => {
    const buyers = [await shopper('scale_race_1', a), await shopper('scale_race_2', b), await shopper('scale_race_3', c)]
    const seriesId = (await ok(call(a.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'series')).list[1].id
    let wins = 0
    for (let round = 0; round < 8; round++) {
      const current = await ok(call(a.origin, 'POST', '/api/caseCurrent', { seriesId }, buyers[0].token), 'case')
      const slot = current.slots.find((x: { sold: boolean }) => !x.sold)?.slot
      if (!slot) continue
      const answers = await Promise.all(buyers.map((s, i) => call([a, b, c][i].origin, 'POST', '/api/casePurchase',
        { caseId: current.caseId, slots: [slot], acknowledged: true, idempotencyKey: `scale-race-${round}-${i}-${Date.now()}` }, s.token)))
      const codes = answers.map(x => x.body!.code).sort()
      expect(codes).toEqual([200, 409, 409])
      wins++
    }
    expect(wins).toBeGreaterThan(0)
    expect(await books()).toEqual([])
  }, 60000)

  test('withdrawals of one balance through A, B and C at once hold only what the cash covers; one decision wins', async () => {
    const s = await shopper('scale_withdraw', a) // 1,000 yuan of cash
    for (let round = 0; round < 3; round++) {
      const balance = (await ok(call(a.origin, 'POST', '/api/walletBalance', {}, s.token), 'balance')).cashCents as number
      // three requests, each for 60 % of the cash: one fits
      const amountCents = Math.floor(balance * 0.6)
      const answers = await Promise.all([a, b, c].map((via, i) => call(via.origin, 'POST', '/api/withdrawRequest', { amountCents, idempotencyKey: `scale-wd-${round}-${i}` }, s.token)))
      const codes = answers.map(x => x.body!.code)
      expect(codes.filter(x => x === 200)).toHaveLength(1)
      expect(codes.filter(x => x !== 200).every(x => x === 422)).toBe(true)
      const after = await ok(call(c.origin, 'POST', '/api/walletBalance', {}, s.token), 'balance after')
      expect(after.cashCents).toBe(balance - amountCents)
      // one key sent to the three: applied once
      const body = { amountCents: 100, idempotencyKey: `scale-wd-key-${round}` }
      const twins = (await Promise.all([a, b, c].map(via => call(via.origin, 'POST', '/api/withdrawRequest', body, s.token)))).map(x => x.body!)
      const held = twins.filter(x => x.code === 200)
      expect(held.length).toBeGreaterThanOrEqual(1)
      expect(new Set(held.map(x => x.data.id)).size).toBe(1)
      for (const x of twins) if (x.code !== 200) expect(x.code).toBe(409)
      // the operator approves on B while another operator rejects on C: one decision
      const operator = await ok(call(a.origin, 'POST', '/login/passwd', { user_name: 'operator', password: 'operator123' }), 'operator login')
      const withdrawalId = answers.find(x => x.body!.code === 200)!.body!.data.id
      const decisions = await Promise.all([
        call(b.origin, 'POST', '/api/operator/withdrawApprove', { withdrawalId }, operator.token),
        call(c.origin, 'POST', '/api/operator/withdrawReject', { withdrawalId, reason: 'scale-out race' }, operator.token)
      ])
      expect(decisions.map(x => x.body!.code).sort()).toEqual([200, 409])
    }
    expect(await books()).toEqual([])
  }, 90000)

  test('one item in combines sent through A, B and C at once: one combine wins, one draw', async () => {
    const s = await shopper('scale_combine', b)
    const series = (await ok(call(a.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'series')).list[2]
    const recipes = await ok(call(a.origin, 'POST', '/api/combineRecipes', { seriesId: series.id }), 'recipes')
    const threeRegular = recipes.find((r: { input: { kind: string; rarity: string | null } }) => r.input.kind === 'rarity' && r.input.rarity === 'regular')
    expect(threeRegular).toBeDefined()
    // boxes until five regular items are in the warehouse
    const regular: number[] = []
    for (let i = 0; i < 40 && regular.length < 5; i++) {
      const current = await ok(call(a.origin, 'POST', '/api/caseCurrent', { seriesId: series.id }, s.token), 'case')
      const slot = current.slots.find((x: { sold: boolean }) => !x.sold).slot
      const bought = await ok(call([a, b, c][i % 3].origin, 'POST', '/api/casePurchase', { caseId: current.caseId, slots: [slot], acknowledged: true, idempotencyKey: `scale-cb-buy-${i}` }, s.token), 'buy')
      for (const p of bought.prizes) if (p.design.rarity === 'regular') regular.push(p.prizeId)
    }
    expect(regular.length).toBeGreaterThanOrEqual(5)
    // three combines share regular[0]; each has its own other two items and its own key
    const sets = [[regular[0], regular[1], regular[2]], [regular[0], regular[3], regular[4]], [regular[0], regular[1], regular[4]]]
    const answers = await Promise.all(sets.map((prizeIds, i) => call([a, b, c][i].origin, 'POST', '/api/combine', { recipeId: threeRegular.id, prizeIds, idempotencyKey: `scale-cb-${i}` }, s.token)))
    const codes = answers.map(x => x.body!.code)
    expect(codes.filter(x => x === 200)).toHaveLength(1)
    expect(codes.filter(x => x !== 200).every(x => x === 409)).toBe(true)
    const won = answers.find(x => x.body!.code === 200)!.body!.data
    const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
    try {
      const combines = await handle.db.selectFrom('combines').select(['id', 'nonce']).where('user_id', '=', s.id).execute()
      expect(combines).toHaveLength(1)
      expect(Number(combines[0].id)).toBe(won.combineId)
      // the winner's inputs left the warehouse; nothing of the losers' did
      const left = await handle.db.selectFrom('prizes').select(['id', 'status']).where('id', 'in', regular).execute()
      const winnerSet = new Set(sets[codes.indexOf(200)])
      for (const p of left) expect(p.status === 'warehouse').toBe(!winnerSet.has(Number(p.id)))
      expect(await invariantViolations(handle.db)).toEqual([])
    } finally {
      await handle.close()
    }
  }, 120000)

  test('a PDF task made on A is seen on B and C, drawn once, and no other account sees it', async () => {
    const operator = await ok(call(a.origin, 'POST', '/login/passwd', { user_name: 'operator', password: 'operator123' }), 'operator login')
    const pdf = await makePdf(2)
    const form = new FormData()
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'scale.pdf')
    const up = await (await fetch(`${a.origin}/dev-api/api/operator/uploadPdf`, { method: 'POST', body: form, headers: { authorization: `Bearer ${operator.token}` } })).json() as Answer['body']
    expect(up?.code).toBe(200)
    const created = await ok(call(a.origin, 'POST', '/api/pdf2image', { url: up!.data.url }, operator.token), 'pdf2image')
    const taskId = created.taskId as string
    // polled through B and C in turn until done: every answer is the same task
    let state = 0
    let pages: unknown[] = []
    for (let i = 0; i < 150 && state !== 1 && state >= 0; i++) {
      const task = await ok(call([b, c][i % 2].origin, 'POST', '/api/queryPDF2ImageTask', { taskId }, operator.token), 'poll')
      state = task.state
      pages = task.pages ?? []
      if (state !== 1) await new Promise(r => setTimeout(r, 200))
    }
    expect(state).toBe(1)
    expect(pages).toHaveLength(2)
    // the same answer from every process, and a shopper is told there is no such task
    const views = await Promise.all([a, b, c].map(via => ok(call(via.origin, 'POST', '/api/queryPDF2ImageTask', { taskId }, operator.token), 'view')))
    expect(views[1]).toEqual(views[0])
    expect(views[2]).toEqual(views[0])
    const stranger = await shopper('scale_task_stranger', c)
    expect((await call(b.origin, 'POST', '/api/queryPDF2ImageTask', { taskId }, stranger.token)).body?.code).toBe(404)
    const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
    try {
      const rows = await handle.db.selectFrom('helper_tasks').select(['id', 'status']).where('id', '=', taskId).execute()
      expect(rows.map(r => r.status)).toEqual(['succeeded'])
    } finally {
      await handle.close()
    }
  }, 90000)
})

/** A PDF of `pages` small pages. */
async function makePdf (pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create()
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([200, 120])
    page.drawRectangle({ x: 0, y: 0, width: 50, height: 120, color: rgb(1, 0, 0) })
    page.drawText(`Page ${i + 1}`, { x: 80, y: 60, size: 12 })
  }
  return Buffer.from(await doc.save())
}
