/**
 * The generic table API: allow-list of tables, methods and fields; ownership; strict params; xlsx export.
 */
import ExcelJS from 'exceljs'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import type { UserRow } from '../../server/src/db/schema'
import type { DataTable } from '../../types/data'

const invoke = (t: TestApp, table: string, method: string, param?: unknown, token?: string, lang?: string) =>
  post(t.app, `/api/data/invoke?table=${table}&method=${method}`, param, { token, lang, ip: nextIp() })

const address = { name: '张三', phone: '13800138000', region: '上海市 浦东新区', detail: '世纪大道 1 号' }

describe.each(testDialects())('table API on %s', (dialect) => {
  let t: TestApp
  let alice: UserRow & { password: string }
  let bob: UserRow & { password: string }
  let aliceToken: string
  let bobToken: string
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    t = await createTestApp(dialect)
    alice = await makeUser(t.db, t.clock)
    bob = await makeUser(t.db, t.clock)
    aliceToken = await loginToken(t.app, alice.user_name!, alice.password)
    bobToken = await loginToken(t.app, bob.user_name!, bob.password)
    const now = new Date(t.clock.now()).toISOString()
    const series = async (name: string, status: 'draft' | 'on_sale') => Number((await t.db.insertInto('series').values({
      name, description: `${name} series`, cover: null, price_cents: 5900, case_size: 12, hidden_ppm: 50000, status, created_at: now, updated_at: now
    }).returning('id').executeTakeFirstOrThrow()).id)
    ids.onSale = await series('Forest friends', 'on_sale')
    ids.draft = await series('Secret drop', 'draft')
    const design = async (seriesId: number, name: string, rarity: 'regular' | 'hidden', sort: number) => Number((await t.db.insertInto('designs').values({
      series_id: seriesId, name, rarity, image: null, reference_value_cents: 5900, recycle_value_cents: 1000, sort, created_at: now
    }).returning('id').executeTakeFirstOrThrow()).id)
    ids.fox = await design(ids.onSale, 'Fox', 'regular', 1)
    ids.owl = await design(ids.onSale, 'Owl', 'hidden', 2)
    ids.draftDesign = await design(ids.draft, 'Unreleased', 'regular', 1)
    ids.case = Number((await t.db.insertInto('cases').values({
      series_id: ids.onSale, size: 12, commit_hash: 'a'.repeat(64), arrangement: '[1,2,3]', salt: 'SECRET-SALT', status: 'on_sale', created_at: now, revealed_at: null
    }).returning('id').executeTakeFirstOrThrow()).id)
    for (const [user, designId] of [[alice, ids.fox], [alice, ids.owl], [bob, ids.fox]] as const) {
      await t.db.insertInto('prizes').values({
        user_id: Number(user.id), series_id: ids.onSale, design_id: designId, case_id: ids.case, slot: 1, status: 'warehouse', created_at: now, updated_at: now
      }).execute()
    }
  })
  afterAll(async () => { await t.close() })

  test('tables outside the allow-list do not exist (404), whoever asks', async () => {
    for (const table of ['users', 'sessions', 'one_time_codes', 'identities', 'rate_limits', 'error_reports', 'kysely_migration', 'wallets', 'ledger', 'seeds', 'constructor', '__proto__']) {
      const r = await invoke(t, table, 'list', {}, aliceToken)
      expect(r.body).toMatchObject({ code: 404, message: `Table ${table} does not exist` })
    }
    expect((await invoke(t, 'users', 'list', {}, aliceToken, 'zh')).body.message).toBe('数据表 users 不存在')
  })

  test('methods: one of the six, and only those the table allows', async () => {
    expect((await invoke(t, 'series', 'drop', {})).body).toMatchObject({ code: 400, data: { field: 'method' } })
    for (const method of ['add', 'update', 'delete']) {
      const r = await invoke(t, 'series', method, { id: ids.onSale, name: 'x' }, aliceToken)
      expect(r.body).toMatchObject({ code: 400, message: `Table series does not support ${method}`, data: { field: 'method' } })
    }
    expect((await invoke(t, 'prizes', 'add', { series_id: ids.onSale }, aliceToken)).body).toMatchObject({ code: 400, data: { field: 'method' } })
    expect((await post(t.app, '/api/data/invoke?table=series', {})).body).toMatchObject({ code: 400, data: { field: 'method', rule: 'required' } })
  })

  test('catalogue: readable by everyone, drafts hidden', async () => {
    const list = await invoke(t, 'series', 'list', {})
    expect(list.body.code).toBe(200)
    expect(list.body.data).toEqual([{
      id: ids.onSale, name: 'Forest friends', description: 'Forest friends series', cover: null, price_cents: 5900,
      case_size: 12, hidden_ppm: 50000, status: 'on_sale',
      created_at: new Date(t.clock.now()).toISOString(), updated_at: new Date(t.clock.now()).toISOString()
    }])
    expect((await invoke(t, 'series', 'get', { id: ids.draft })).body).toMatchObject({ code: 404, message: 'Record not found' })
    const designs = await invoke(t, 'designs', 'list', { where: { series_id: ids.onSale } })
    expect(designs.body.data.map((d: { name: string }) => d.name)).toEqual(['Fox', 'Owl'])
    expect((await invoke(t, 'designs', 'list', { where: { rarity: 'hidden' } })).body.data.map((d: { id: number }) => d.id)).toEqual([ids.owl])
    expect((await invoke(t, 'designs', 'get', { id: ids.draftDesign })).body.code).toBe(404)
    const page = await invoke(t, 'designs', 'page', { page: 1, size: 1, orderBy: 'sort', order: 'desc' })
    expect(page.body.data).toMatchObject({ total: 2, list: [{ name: 'Owl' }] })
  })

  test('case arrangements and salts are never reachable', async () => {
    const c = await invoke(t, 'cases', 'get', { id: ids.case })
    expect(c.body.code).toBe(200)
    expect(Object.keys(c.body.data).sort()).toEqual(['commit_hash', 'created_at', 'id', 'revealed_at', 'series_id', 'size', 'status'])
    expect(JSON.stringify((await invoke(t, 'cases', 'list', {})).body)).not.toContain('SECRET-SALT')
    expect((await invoke(t, 'cases', 'list', { where: { salt: 'SECRET-SALT' } })).body).toMatchObject({ code: 400, data: { field: 'where.salt', rule: 'additionalProperties' } })
    expect((await invoke(t, 'cases', 'list', { orderBy: 'arrangement' })).body).toMatchObject({ code: 400, data: { field: 'orderBy' } })
    expect((await post(t.app, '/api/data/export?table=cases', {})).body).toMatchObject({ code: 400 })
  })

  test('addresses: a user adds, reads, edits and deletes their own', async () => {
    const added = await invoke(t, 'addresses', 'add', address, aliceToken)
    expect(added.body.code).toBe(200)
    expect(added.body.data).toMatchObject({ ...address, is_default: true }) // the first one is the default
    expect(added.body.data).not.toHaveProperty('user_id')
    const id = added.body.data.id
    const second = await invoke(t, 'addresses', 'add', { ...address, name: '李四', is_default: true }, aliceToken)
    expect(second.body.data.is_default).toBe(true)
    const list = await invoke(t, 'addresses', 'list', {}, aliceToken)
    expect(list.body.data.map((a: { name: string; is_default: boolean }) => [a.name, a.is_default])).toEqual([['李四', true], ['张三', false]])
    const updated = await invoke(t, 'addresses', 'update', { id, detail: '世纪大道 2 号', is_default: true }, aliceToken)
    expect(updated.body.data).toMatchObject({ id, detail: '世纪大道 2 号', is_default: true })
    expect((await invoke(t, 'addresses', 'list', { where: { is_default: true } }, aliceToken)).body.data.map((a: { id: number }) => a.id)).toEqual([id])
    expect((await invoke(t, 'addresses', 'delete', { id }, aliceToken)).body).toMatchObject({ code: 200, data: null })
    expect((await invoke(t, 'addresses', 'get', { id }, aliceToken)).body.code).toBe(404)
    expect((await invoke(t, 'addresses', 'page', { page: 1, size: 10 }, aliceToken)).body.data.total).toBe(1)
  })

  test('ownership: another user\'s address does not exist for you; anonymous callers must log in', async () => {
    const mine = (await invoke(t, 'addresses', 'add', address, bobToken)).body.data
    expect((await invoke(t, 'addresses', 'get', { id: mine.id }, aliceToken)).body.code).toBe(404)
    expect((await invoke(t, 'addresses', 'update', { id: mine.id, name: 'hijack', is_default: true }, aliceToken)).body.code).toBe(404)
    expect((await invoke(t, 'addresses', 'delete', { id: mine.id }, aliceToken)).body.code).toBe(404)
    expect((await invoke(t, 'addresses', 'list', {}, aliceToken)).body.data.map((a: { id: number }) => a.id)).not.toContain(mine.id)
    const still = (await invoke(t, 'addresses', 'get', { id: mine.id }, bobToken)).body.data
    expect(still).toMatchObject({ name: '张三', is_default: true })
    expect((await invoke(t, 'addresses', 'list', {})).body).toMatchObject({ code: 401 })
    expect((await invoke(t, 'prizes', 'list', {})).body).toMatchObject({ code: 401 })
    // user_id cannot be read, written or filtered on
    expect((await invoke(t, 'addresses', 'add', { ...address, user_id: Number(alice.id) }, bobToken)).body).toMatchObject({ code: 400, data: { field: 'user_id' } })
    expect((await invoke(t, 'addresses', 'list', { where: { user_id: Number(bob.id) } }, aliceToken)).body).toMatchObject({ code: 400, data: { field: 'where.user_id' } })
  })

  test('prizes: each user reads only their own', async () => {
    const a = await invoke(t, 'prizes', 'list', {}, aliceToken)
    expect(a.body.data.map((p: { design_id: number }) => p.design_id).sort()).toEqual([ids.fox, ids.owl].sort())
    const b = await invoke(t, 'prizes', 'page', { page: 1, size: 10 }, bobToken)
    expect(b.body.data.total).toBe(1)
    const bobsPrize = b.body.data.list[0].id
    expect((await invoke(t, 'prizes', 'get', { id: bobsPrize }, aliceToken)).body.code).toBe(404)
    expect((await invoke(t, 'prizes', 'list', { where: { status: 'warehouse', design_id: ids.owl } }, aliceToken)).body.data).toHaveLength(1)
  })

  test('strict params: types are not coerced, unknown fields are refused, limits hold', async () => {
    const cases: Array<[string, string, unknown, string, string]> = [
      ['series', 'page', { page: '1', size: 10 }, 'page', 'type'],
      ['series', 'page', { page: 1 }, 'size', 'required'],
      ['series', 'page', { page: 1, size: 101 }, 'size', 'maximum'],
      ['series', 'page', { page: 0, size: 10 }, 'page', 'minimum'],
      ['series', 'list', { limit: 1000 }, 'limit', 'maximum'],
      ['series', 'get', { id: '1' }, 'id', 'type'],
      ['series', 'get', {}, 'id', 'required'],
      ['series', 'list', { where: { name: 'x' } }, 'where.name', 'additionalProperties'],
      ['series', 'list', { order: 'sideways' }, 'order', 'enum'],
      ['addresses', 'add', { ...address, phone: '123' }, 'phone', 'pattern'],
      ['addresses', 'add', { ...address, is_default: 'true' }, 'is_default', 'type'],
      ['addresses', 'add', { name: 'x' }, 'phone', 'required'],
      ['addresses', 'update', { id: 1 }, 'param', 'minProperties'],
      ['addresses', 'add', [], 'param', 'type']
    ]
    for (const [table, method, param, field, rule] of cases) {
      const r = await invoke(t, table, method, param, aliceToken)
      expect({ table, method, body: r.body }).toMatchObject({ table, method, body: { code: 400, data: { field, rule } } })
    }
    expect((await invoke(t, 'series', 'page', { page: '1', size: 10 }, undefined, 'zh')).body.message).toBe('page 应为整数')
  })

  test('at most 20 addresses per user (422)', async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    for (let i = 0; i < 20; i++) expect((await invoke(t, 'addresses', 'add', address, token)).body.code).toBe(200)
    expect((await invoke(t, 'addresses', 'add', address, token)).body).toMatchObject({ code: 422, data: { max: 20 } })
  })

  test('export: a real xlsx of the allowed fields, with the xlsx content type', async () => {
    const res = await t.app.inject({
      method: 'POST', url: `${PREFIX}/api/data/export?table=prizes`, payload: {},
      headers: { authorization: `Bearer ${aliceToken}` }, remoteAddress: nextIp()
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="prizes-[0-9a-f]{12}\.xlsx"$/)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const sheet = wb.getWorksheet('prizes')!
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(header).toEqual(['id', 'series_id', 'design_id', 'case_id', 'slot', 'status', 'created_at', 'updated_at'])
    expect(sheet.rowCount).toBe(3) // header + alice's two prizes
    const designIds = [2, 3].map(r => sheet.getRow(r).getCell(3).value).sort()
    expect(designIds).toEqual([ids.fox, ids.owl].sort())
    expect(sheet.getRow(2).getCell(7).value).toBeInstanceOf(Date)

    const series = await t.app.inject({ method: 'POST', url: `${PREFIX}/api/data/export?table=series`, payload: { where: { status: 'on_sale' } }, remoteAddress: nextIp() })
    const wb2 = new ExcelJS.Workbook()
    await wb2.xlsx.load(series.rawPayload as unknown as ArrayBuffer)
    expect(wb2.getWorksheet('series')!.getRow(2).getCell(2).value).toBe('Forest friends')

    expect((await post(t.app, '/api/data/export?table=prizes', {})).body.code).toBe(401)
    expect((await post(t.app, '/api/data/export?table=users', {}, { token: aliceToken })).body.code).toBe(404)
    expect((await post(t.app, '/api/data/export?table=series', { where: { salt: 1 } })).body).toMatchObject({ code: 400, data: { field: 'where.salt' } })
  })
})

describe('the API contract of the tables (types/data.ts)', () => {
  test('every table of the allow-list has its row schema, its fields are the row\'s, and its methods are the contract\'s', async () => {
    const { TABLES } = await import('../../server/src/data/tables')
    const { DATA_METHODS, DATA_ROWS } = await import('../../types/data')
    expect(Object.keys(TABLES).sort()).toEqual(Object.keys(DATA_ROWS).sort())
    for (const [table, spec] of Object.entries(TABLES)) {
      expect(spec.row).toBe(DATA_ROWS[table as DataTable])
      expect(Object.keys(spec.fields).sort()).toEqual(Object.keys(spec.row.properties).sort())
      expect([...spec.methods].sort()).toEqual([...DATA_METHODS[table as DataTable]].sort())
    }
  })
})
