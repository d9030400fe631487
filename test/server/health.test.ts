/**
 * Health (issue 26 item 2): /healthz answers while the process lives; /readyz is ready when the
 * database answers and every migration is applied, and otherwise a 503 naming why, in the caller's
 * language; neither shows anything of the configuration but on or off.
 */
import { sql } from 'kysely'
import { createTestApp, get, type TestApp } from './support/app'
import { testDialects } from './support/db'

describe.each(testDialects())('health on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect, { env: { TENCENT_MAP_KEY: 'SECRETKEY-ABCDE-12345', TENCENT_MAP_API_BASE: 'http://127.0.0.1:9/secret-path' } }) })
  afterAll(async () => { await t?.close() })

  test('liveness and readiness, without the configuration', async () => {
    const live = await get(t.app, '/healthz')
    expect(live.status).toBe(200)
    expect(live.body.data).toMatchObject({ status: 'ok' })
    const ready = await get(t.app, '/readyz')
    expect(ready.status).toBe(200)
    expect(ready.body.data).toMatchObject({ ready: true, database: 'ok' })
    expect(ready.body.data.migrations.applied).toBe(ready.body.data.migrations.known)
    expect(ready.body.data.migrations.known).toBeGreaterThanOrEqual(20)
    expect(ready.body.data.providers.tencentMap).toBe(true)
    expect(ready.body.data.providers.wechatPay).toBe(false)
    const text = JSON.stringify(ready.body)
    for (const secret of ['SECRETKEY', '127.0.0.1:9', 'secret-path', 'postgres://', '.sqlite']) expect(text).not.toContain(secret)
  })

  test('a migration not applied: 503, saying so, in the caller\'s language', async () => {
    const last = await t.db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never, 'desc').limit(1).executeTakeFirstOrThrow() as { name: string }
    await sql`delete from kysely_migration where name = ${last.name}`.execute(t.db)
    try {
      const zh = await get(t.app, '/readyz', { lang: 'zh' })
      expect(zh.status).toBe(503)
      expect(zh.body).toMatchObject({ code: 503, message: '暂不可用：还有 1 个数据库迁移没有执行', data: { ready: false, database: 'ok' } })
      expect((await get(t.app, '/readyz')).body.message).toBe('Not ready: 1 database migration(s) not applied')
      // alive all the same
      expect((await get(t.app, '/healthz')).status).toBe(200)
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last.name}, ${new Date().toISOString()})`.execute(t.db)
    }
    expect((await get(t.app, '/readyz')).status).toBe(200)
  })
})
