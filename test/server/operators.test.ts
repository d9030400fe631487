/**
 * Roles and the audit log (types/operators.ts): the operators' user search (masked), granting and
 * revoking the role (not one's own, never the last operator, also when two operators revoke each other
 * at once), OPERATOR_ACCOUNTS at start-up (in the real server process too), and the audit log viewer
 * with the before and after of settings, recipes and roles.
 */
import { loadConfig } from '../../server/src/config'
import { promoteConfiguredOperators } from '../../server/src/domain/ops/operators'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { makeSeries } from './support/shop'
import { newStore, startServer, call as httpCall } from './support/server-process'

interface Who { id: number; token: string; userName: string }

describe.each(testDialects())('roles and the audit log on %s', (dialect) => {
  let t: TestApp
  let boss: Who
  const who = async (fields: Parameters<typeof makeUser>[2] = {}): Promise<Who> => {
    const u = await makeUser(t.db, t.clock, fields)
    return { id: Number(u.id), token: await loginToken(t.app, u.user_name!, u.password), userName: u.user_name! }
  }
  const as = (w: Who, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token: w.token, lang, ip: nextIp() })
  const role = async (id: number) => (await t.db.selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role
  const auditRows = () => t.db.selectFrom('audit_log').selectAll().orderBy('id').execute()

  beforeAll(async () => {
    t = await createTestApp(dialect)
    boss = await who({ role: 'operator', user_name: `Boss_${dialect}` })
  })
  afterAll(async () => { await t?.close() })

  test('the user search finds accounts by a part of the user name, phone or e-mail, masked, operators first', async () => {
    const a = await who({ user_name: `Ärger_${dialect}`, phone: dialect === 'sqlite' ? '13911112222' : '13911113333', email: `anna.${dialect}@example.com` })
    await who({ user_name: `other_${dialect}_100%`, email: `b_${dialect}@example.org` })
    const find = async (query: string) => (await as(boss, '/api/operator/users', { page: 1, size: 20, query })).body
    // the user name: any part, any case; the whole name in another form (NFKC, case folding)
    for (const q of [`ärger_${dialect}`, 'RGER_', `ＡＲＧＥＲ_${dialect}`.normalize('NFC').replace('Ａ', 'Ä')]) {
      expect([q, (await find(q)).data.list.map((u: { id: number }) => u.id)]).toEqual([q, expect.arrayContaining([a.id])])
    }
    const byPhone = (await find('1111')).data.list.find((u: { id: number }) => u.id === a.id)
    expect(byPhone).toEqual({
      id: a.id, userName: `Ärger_${dialect}`, nickname: 'Tester', phone: expect.stringMatching(/^139\*\*\*\*\d{4}$/),
      email: `a***${dialect.slice(-1)}@example.com`, role: 'shopper', createdAt: expect.any(String), self: false
    })
    expect((await find(`ANNA.${dialect}@Example`)).data.list.map((u: { id: number }) => u.id)).toEqual([a.id])
    // % and _ are letters, not wildcards
    expect((await find('100%')).data.list.map((u: { userName: string }) => u.userName)).toEqual([`other_${dialect}_100%`])
    expect((await find('%')).data.total).toBe(1)
    expect((await find('no such person')).data).toEqual({ list: [], total: 0 })
    // everyone, operators first; paging; one role
    const all = (await as(boss, '/api/operator/users', { page: 1, size: 50 })).body.data
    expect(all.list[0]).toMatchObject({ id: boss.id, role: 'operator', self: true })
    expect(all.total).toBeGreaterThanOrEqual(3)
    const page2 = (await as(boss, '/api/operator/users', { page: 2, size: 1 })).body.data
    expect(page2.list).toHaveLength(1)
    expect(page2.list[0].id).toBe(all.list[1].id)
    const ops = (await as(boss, '/api/operator/users', { page: 1, size: 50, role: 'operator' })).body.data
    expect(ops.list.every((u: { role: string }) => u.role === 'operator')).toBe(true)
    // bad input names the field
    expect((await as(boss, '/api/operator/users', { page: 1, size: 20, query: 'x'.repeat(101) })).body).toMatchObject({ code: 400, data: { field: 'query' } })
    expect((await as(boss, '/api/operator/users', { page: 1, size: 51 })).body).toMatchObject({ code: 400, data: { field: 'size' } })
    expect((await as(boss, '/api/operator/users', { page: 1, size: 5, query: 'a\u0000' }, 'zh')).body).toMatchObject({ code: 400, data: { field: 'query' } })
  })

  test('granting the role: the shopper becomes an operator at once; the audit log has who, when, before and after', async () => {
    const s = await who()
    expect((await as(s, '/api/operator/users', { page: 1, size: 5 })).body.code).toBe(403)
    const before = (await auditRows()).length
    const r = await as(boss, '/api/operator/roleSave', { userId: s.id, role: 'operator' }, 'zh')
    expect(r.body).toMatchObject({ code: 200, message: '操作成功', data: { id: s.id, role: 'operator', self: false } })
    expect(await role(s.id)).toBe('operator')
    // the same session now passes (the role is read on every request)
    expect((await as(s, '/api/operator/users', { page: 1, size: 5 })).body.code).toBe(200)
    const rows = (await auditRows()).slice(before)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ actor_id: boss.id, action: 'role.grant', entity: 'user', entity_id: s.id, created_at: expect.any(String) })
    expect(JSON.parse(rows[0].detail)).toEqual({ before: { role: 'shopper' }, after: { role: 'operator' }, user: `Tester (${s.userName})` })
    // the same role again: the account as it is, no second entry
    expect((await as(boss, '/api/operator/roleSave', { userId: s.id, role: 'operator' })).body).toMatchObject({ code: 200, data: { role: 'operator' } })
    expect((await auditRows()).length).toBe(before + 1)

    // revoking: the next operator call is refused
    expect((await as(boss, '/api/operator/roleSave', { userId: s.id, role: 'shopper' })).body.data.role).toBe('shopper')
    expect((await as(s, '/api/operator/users', { page: 1, size: 5 })).body).toMatchObject({ code: 403, message: 'Only an operator can do this' })
    const revoke = (await auditRows()).at(-1)!
    expect([revoke.action, JSON.parse(revoke.detail).before, JSON.parse(revoke.detail).after]).toEqual(['role.revoke', { role: 'operator' }, { role: 'shopper' }])
  })

  test('an operator cannot revoke their own role; unknown users are 404; bad input is 400; nothing changes', async () => {
    const before = (await auditRows()).length
    const self = await as(boss, '/api/operator/roleSave', { userId: boss.id, role: 'shopper' }, 'zh')
    expect(self.body).toEqual({ code: 422, message: '不能撤销自己的运营权限', data: { field: 'userId' } })
    expect((await as(boss, '/api/operator/roleSave', { userId: boss.id, role: 'shopper' })).body.message).toBe('You cannot revoke your own operator role')
    expect((await as(boss, '/api/operator/roleSave', { userId: 9_000_000, role: 'operator' })).body).toMatchObject({ code: 404, message: 'No such user' })
    expect((await as(boss, '/api/operator/roleSave', { userId: boss.id, role: 'admin' })).body).toMatchObject({ code: 400, data: { field: 'role' } })
    expect((await as(boss, '/api/operator/roleSave', { userId: 0, role: 'operator' })).body).toMatchObject({ code: 400, data: { field: 'userId' } })
    expect((await as(boss, '/api/operator/roleSave', { userId: boss.id })).body).toMatchObject({ code: 400, data: { field: 'role' } })
    expect(await role(boss.id)).toBe('operator')
    expect((await auditRows()).length).toBe(before)
  })

  test('two operators revoking each other at once: one wins, the other is refused, one operator is left (6 rounds)', async () => {
    // alone in the shop: the other operators of this suite become shoppers for this test
    const others = await t.db.selectFrom('users').select('id').where('role', '=', 'operator').where('id', '!=', boss.id).execute()
    for (const o of others) await t.db.updateTable('users').set({ role: 'shopper' }).where('id', '=', o.id).execute()
    for (let round = 0; round < 6; round++) {
      const a = await who({ role: 'operator' })
      const b = await who({ role: 'operator' })
      // boss steps aside for the round (by the database: the rule is about a, b and whoever else is left)
      await t.db.updateTable('users').set({ role: 'shopper' }).where('id', '=', boss.id).execute()
      const [ra, rb] = await Promise.all([
        as(a, '/api/operator/roleSave', { userId: b.id, role: 'shopper' }),
        as(b, '/api/operator/roleSave', { userId: a.id, role: 'shopper' })
      ])
      const codes = [ra.body.code, rb.body.code].sort()
      // the loser is refused as the last operator, or (it lost its own role first) as a shopper
      expect([round, codes[0], [403, 422]]).toEqual([round, 200, expect.arrayContaining([codes[1]])])
      const left = await t.db.selectFrom('users').select('id').where('role', '=', 'operator').execute()
      expect([round, left.length]).toEqual([round, 1])
      const lastWords = [ra, rb].find(r => r.body.code === 422)
      if (lastWords) expect(lastWords.body.message).toBe('This is the last operator: the role cannot be revoked')
      await t.db.updateTable('users').set({ role: 'shopper' }).where('id', 'in', [a.id, b.id]).execute()
      await t.db.updateTable('users').set({ role: 'operator' }).where('id', '=', boss.id).execute()
    }
  }, 60000)

  test('settings and recipes write their before and after; the audit log shows them newest first, by entity and by actor', async () => {
    const other = await who({ role: 'operator' })
    // settings: only what changed, in one entry
    const current = (await as(boss, '/api/operator/settings', {})).body.data
    const saved = await as(boss, '/api/operator/settingsSave', { hintCardPriceCents: current.hintCardPriceCents + 100, xrayCardPriceCents: current.xrayCardPriceCents, shipFeeCents: 0 })
    expect(saved.body.code).toBe(200)
    const settingsRow = (await auditRows()).at(-1)!
    expect(settingsRow).toMatchObject({ action: 'settings.update', entity: 'setting', actor_id: boss.id })
    expect(JSON.parse(settingsRow.detail)).toEqual({
      before: { hintCardPriceCents: current.hintCardPriceCents, shipFeeCents: current.shipFeeCents },
      after: { hintCardPriceCents: current.hintCardPriceCents + 100, shipFeeCents: 0 }
    })
    // nothing changed: no entry
    const count = (await auditRows()).length
    await as(boss, '/api/operator/settingsSave', { shipFeeCents: 0 })
    expect((await auditRows()).length).toBe(count)

    // a recipe created, then changed by another operator
    const seriesId = await makeSeries(t.db, t.clock)
    const designs = await t.db.selectFrom('designs').select(['id', 'rarity']).where('series_id', '=', seriesId).orderBy('id').execute()
    const rare = designs.filter(d => d.rarity === 'rare').map(d => Number(d.id))
    const body = { seriesId, name: { zh: '升级', en: 'Level up' }, inputKind: 'rarity', inputRarity: 'regular', inputCount: 3, pool: rare.map(id => ({ designId: id, weight: 2 })), status: 'on' }
    const made = (await as(boss, '/api/operator/recipeSave', body)).body.data
    await as(other, '/api/operator/recipeSave', { ...body, id: made.id, inputCount: 4, pool: [{ designId: rare[0], weight: 5 }] })
    const recipeRows = (await auditRows()).filter(r => r.entity === 'recipe' && r.entity_id === made.id)
    expect(recipeRows.map(r => [r.action, r.actor_id])).toEqual([['recipe.create', boss.id], ['recipe.update', other.id]])
    const created = JSON.parse(recipeRows[0].detail)
    expect(created.before).toBeNull()
    const names = new Map((await t.db.selectFrom('designs').select(['id', 'name', 'name_en']).where('series_id', '=', seriesId).execute()).map(d => [Number(d.id), { zh: d.name, en: d.name_en }]))
    expect(created.after).toEqual({ seriesId, name: { zh: '升级', en: 'Level up' }, inputKind: 'rarity', inputRarity: 'regular', inputCount: 3, pool: rare.map(id => ({ designId: id, name: names.get(id), weight: 2 })), status: 'on' })
    const changed = JSON.parse(recipeRows[1].detail)
    expect(changed.before).toEqual(created.after)
    expect(changed.after).toMatchObject({ inputCount: 4, pool: [{ designId: rare[0], name: names.get(rare[0]), weight: 5 }] })
    // a blank name is refused, naming the field, in both languages
    expect((await as(boss, '/api/operator/recipeSave', { ...body, name: { zh: '  ', en: 'x' } }, 'zh')).body).toEqual({ code: 400, message: 'name.zh 不能只有空白', data: { field: 'name.zh' } })
    expect((await as(boss, '/api/operator/recipeSave', { ...body, name: { zh: 'x', en: ' ' } })).body).toEqual({ code: 400, message: 'name.en must not be blank', data: { field: 'name.en' } })

    // the viewer: newest first, with names
    const log = (await as(boss, '/api/operator/audit', { page: 1, size: 2 })).body.data
    expect(log.list).toHaveLength(2)
    expect(log.list[0]).toMatchObject({ action: 'recipe.update', entity: 'recipe', entityId: made.id, actor: { id: other.id, name: `Tester (${other.userName})` }, before: created.after, after: changed.after, context: {} })
    expect(log.list[1]).toMatchObject({ action: 'recipe.create', actor: { id: boss.id }, before: null })
    expect(Date.parse(log.list[0].at)).toBeGreaterThan(0)
    expect(log.total).toBe((await auditRows()).length)
    expect(log.entities).toEqual(expect.arrayContaining(['recipe', 'setting', 'user']))
    expect(log.actors.map((a: { id: number }) => a.id)).toEqual(expect.arrayContaining([boss.id, other.id]))
    // by entity, by actor, both
    const settingsOnly = (await as(boss, '/api/operator/audit', { page: 1, size: 50, entity: 'setting' })).body.data
    expect(settingsOnly.list.length).toBeGreaterThan(0)
    expect(settingsOnly.list.every((e: { entity: string }) => e.entity === 'setting')).toBe(true)
    const byOther = (await as(boss, '/api/operator/audit', { page: 1, size: 50, actorId: other.id })).body.data
    expect(byOther.list.map((e: { action: string }) => e.action)).toEqual(['recipe.update'])
    expect((await as(boss, '/api/operator/audit', { page: 1, size: 50, actorId: other.id, entity: 'setting' })).body.data).toMatchObject({ list: [], total: 0 })
    // page 2 goes on where page 1 stopped
    const p2 = (await as(boss, '/api/operator/audit', { page: 2, size: 2 })).body.data
    expect(p2.list[0].id).toBeLessThan(log.list[1].id)
    // bad filters name the field
    expect((await as(boss, '/api/operator/audit', { page: 1, size: 5, entity: 'Series; drop' })).body).toMatchObject({ code: 400, data: { field: 'entity' } })
    expect((await as(boss, '/api/operator/audit', { page: 0, size: 5 })).body).toMatchObject({ code: 400, data: { field: 'page' } })
  })

  test('the shop keeps an operator: the last one cannot delete their account; with another operator they can; deleted accounts are not found', async () => {
    // alone: the other operators of this suite step aside
    const others = await t.db.selectFrom('users').select('id').where('role', '=', 'operator').where('id', '!=', boss.id).execute()
    await t.db.updateTable('users').set({ role: 'shopper' }).where('id', 'in', [0, ...others.map(o => Number(o.id))]).execute()
    const password = 'secret-pw'
    const refused = await as(boss, '/api/security/deleteAccount', { password }, 'zh')
    expect(refused.body).toEqual({ code: 422, message: '你是最后一位运营人员：请先让另一个账号成为运营人员，再注销这个账号', data: { reason: 'last_operator' } })
    expect(await role(boss.id)).toBe('operator')
    // a second operator may leave
    const second = await who({ role: 'operator', user_name: `Leaving_${dialect}` })
    expect((await as(second, '/api/security/deleteAccount', { password })).body.code).toBe(200)
    expect(await role(second.id)).toBe('shopper')
    const found = (await as(boss, '/api/operator/users', { page: 1, size: 50 })).body.data
    expect(found.list.map((u: { id: number }) => u.id)).not.toContain(second.id)
    expect((await as(boss, '/api/operator/users', { page: 1, size: 50, query: `Leaving_${dialect}` })).body.data.total).toBe(0)
    // and it cannot be made an operator again
    expect((await as(boss, '/api/operator/roleSave', { userId: second.id, role: 'operator' })).body).toMatchObject({ code: 404 })
    await t.db.updateTable('users').set({ role: 'operator' }).where('id', 'in', [0, ...others.map(o => Number(o.id))]).execute()
  })

  test('OPERATOR_ACCOUNTS: accounts named by user name, phone or e-mail are promoted (audited as the system); missing ones reported', async () => {
    const byName = await makeUser(t.db, t.clock, { user_name: `Founder_${dialect}` })
    const byPhone = await makeUser(t.db, t.clock, { phone: dialect === 'sqlite' ? '13700000001' : '13700000002' })
    const byMail = await makeUser(t.db, t.clock, { email: `founder.${dialect}@example.com` })
    const config = loadConfig({
      NODE_ENV: 'test',
      OPERATOR_ACCOUNTS: ` founder_${dialect.toUpperCase()} , +86${byPhone.phone}, FOUNDER.${dialect}@EXAMPLE.COM,nobody_here, ,${boss.userName}`
    })
    expect(config.operatorAccounts.map(a => a.kind)).toEqual(['user_name', 'phone', 'email', 'user_name', 'user_name'])
    const before = (await auditRows()).length
    const report = await promoteConfiguredOperators(t.db, t.clock.now, config.operatorAccounts)
    expect(report).toEqual({
      promoted: [`founder_${dialect.toUpperCase()}`, expect.stringMatching(/^137\*\*\*\*000\d$/), `f***${dialect.slice(-1)}@example.com`],
      already: [boss.userName],
      missing: ['nobody_here']
    })
    for (const u of [byName, byPhone, byMail]) expect(await role(Number(u.id))).toBe('operator')
    const rows = (await auditRows()).slice(before)
    expect(rows.map(r => [r.action, r.actor_id, r.entity_id])).toEqual([byName, byPhone, byMail].map(u => ['role.grant', null, Number(u.id)]))
    expect(JSON.parse(rows[0].detail)).toMatchObject({ before: { role: 'shopper' }, after: { role: 'operator' }, source: 'OPERATOR_ACCOUNTS' })
    // again: nothing more to do
    expect((await promoteConfiguredOperators(t.db, t.clock.now, config.operatorAccounts)).promoted).toEqual([])
    // the viewer shows the system as no actor
    const log = (await as(boss, '/api/operator/audit', { page: 1, size: 1, entity: 'user' })).body.data
    expect(log.list[0]).toMatchObject({ actor: null, action: 'role.grant', context: { source: 'OPERATOR_ACCOUNTS' } })
  })
})

describe('OPERATOR_ACCOUNTS in the configuration', () => {
  test('blank entries are ignored; bad ones stop the start with the variable named', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).operatorAccounts).toEqual([])
    expect(loadConfig({ NODE_ENV: 'test', OPERATOR_ACCOUNTS: ' , ' }).operatorAccounts).toEqual([])
    expect(loadConfig({ NODE_ENV: 'test', OPERATOR_ACCOUNTS: '12345,13800000009' }).operatorAccounts)
      .toEqual([{ kind: 'user_name', value: '12345' }, { kind: 'phone', value: '13800000009' }])
    expect(() => loadConfig({ NODE_ENV: 'test', OPERATOR_ACCOUNTS: 'a@b' })).toThrow(/OPERATOR_ACCOUNTS: "a@b" is not a valid e-mail address/)
    expect(() => loadConfig({ NODE_ENV: 'test', OPERATOR_ACCOUNTS: `ok,${'x'.repeat(300)}` })).toThrow(/OPERATOR_ACCOUNTS/)
  })
})

describe.each(testDialects())('the real server with OPERATOR_ACCOUNTS on %s', (dialect) => {
  test('the demo shopper named in OPERATOR_ACCOUNTS is an operator after the start; the demo operator stays one', async () => {
    const store = await newStore(dialect)
    const server = await startServer(store, { OPERATOR_ACCOUNTS: 'shopper' })
    try {
      for (const [name, password] of [['shopper', 'shopper123'], ['operator', 'operator123']]) {
        const login = await httpCall(server.origin, 'POST', '/login/passwd', { user_name: name, password })
        expect(login.body?.data.user.role).toBe('operator')
        const users = await httpCall(server.origin, 'POST', '/api/operator/users', { page: 1, size: 5, query: 'shopper' }, login.body?.data.token)
        expect(users.body?.data.list[0]).toMatchObject({ userName: 'shopper', role: 'operator', phone: '138****0001', email: 's***r@example.com' })
      }
    } finally {
      await server.stop()
      await store.drop()
    }
  }, 120000)
})
