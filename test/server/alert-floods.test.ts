/**
 * Operator alerts one shopper cannot flood (issue 21, item 8), on SQLite and PostgreSQL, against the
 * local Feishu and WeCom webhooks, which refuse what the real robots refuse (Feishu: 100 a minute and 5
 * a second per bot, code 11232; WeCom: 20 a minute per robot, errcode 45009).
 *
 * Before the fix, 30 withdrawal requests of 1 yuan sent 60 robot posts, and the robots' own limits then
 * dropped real alerts. Now one account's alerts of one kind go out once, then as one digest per window;
 * the operators' queue still lists every request; each robot is paced below its limit, and what cannot
 * go out before the server closes is folded into one line, never refused.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { invariantViolations } from './support/invariants'
import * as feishuFake from '../support/providers/feishu'
import * as wecomFake from '../support/providers/wecom'
import { ALERT_BATCH_MS, ROBOT_PACE } from '../../server/src/domain/ops/alerts'
import { saveSettings } from '../../server/src/domain/ops/settings'

async function until (check: () => boolean, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}
const settle = (ms = 400) => new Promise(resolve => setTimeout(resolve, ms))

test('the pace stays below each robot\'s documented limit', () => {
  // Feishu: 100 a minute and 5 a second; WeCom: 20 a minute
  expect(ROBOT_PACE.feishu.every(p => (p.perMs === 1000 && p.max < 5) || (p.perMs === 60_000 && p.max < 100))).toBe(true)
  expect(ROBOT_PACE.feishu.map(p => p.perMs).sort()).toEqual([1000, 60_000])
  expect(ROBOT_PACE.wecom).toEqual([{ max: expect.any(Number), perMs: 60_000 }])
  expect(ROBOT_PACE.wecom[0].max).toBeLessThan(20)
})

describe.each(testDialects())('alert floods on %s', (dialect) => {
  let t: TestApp
  let feishu: feishuFake.FakeFeishu
  let wecom: wecomFake.FakeWeCom
  let operator: string
  const start = async (robots: 'both' | 'wecom') => {
    ;[feishu, wecom] = await Promise.all([feishuFake.start(), wecomFake.start()])
    t = await createTestApp(dialect, { env: robots === 'both' ? { ...feishu.env, ...wecom.env } : wecom.env })
    feishu.now = t.clock.now
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    operator = await loginToken(t.app, op.user_name!, op.password)
    await saveSettings(t.db, t.clock.now, Number(op.id), { withdrawMinCents: 100 })
  }
  const stop = async () => {
    expect(await invariantViolations(t.db)).toEqual([])
    await t.close()
    await Promise.all([feishu.close(), wecom.close()])
  }
  const withdraw = (s: Shopper, amountCents: number) =>
    post(t.app, '/api/withdrawRequest', { amountCents, idempotencyKey: newKey('flood') }, { token: s.token, ip: nextIp() })
  const undelivered = () => t.logs.filter(l => l.includes('operator alert not delivered'))

  test('30 withdrawals of 1 yuan by one shopper: one alert per robot, then one digest of the other 29; the queue lists all 30', async () => {
    await start('both')
    try {
      const s = await makeShopper(t.app, t.db, t.clock)
      await topUp(t.app, s, 3000)
      const ids: number[] = []
      for (let i = 0; i < 30; i++) {
        const w = await withdraw(s, 100)
        expect(w.body.code).toBe(200)
        ids.push(w.body.data.id)
      }
      const first = `【新提现申请】#${ids[0]}：1.00 元，用户 #${s.id} T***r，请在编辑器的“提现审核”页处理`
      await until(() => feishu.messages.includes(first) && wecom.messages.includes(first), 'the first alert')
      await settle()
      expect([feishu.messages, wecom.messages]).toEqual([[first], [first]])
      // every request is in the operators' queue
      const queue = await post(t.app, '/api/operator/withdrawList', { page: 1, size: 50, status: 'requested' }, { token: operator })
      expect(queue.body.data.total).toBe(30)

      // the window ends: the next alert (another shopper's) brings the digest of the 29 along
      t.clock.advance(ALERT_BATCH_MS)
      const other = await makeShopper(t.app, t.db, t.clock)
      await topUp(t.app, other, 500)
      const w2 = await withdraw(other, 500)
      expect(w2.body.code).toBe(200)
      const digest = `【提现申请汇总】用户 #${s.id} T***r 在 10 分钟内又提交了 29 笔提现申请（#${ids[1]} 至 #${ids[29]}，共 29.00 元），请在编辑器的“提现审核”页逐笔处理`
      const second = `【新提现申请】#${w2.body.data.id}：5.00 元，用户 #${other.id} T***r，请在编辑器的“提现审核”页处理`
      await until(() => [feishu, wecom].every(r => r.messages.includes(digest) && r.messages.includes(second)), 'the digest and the other alert')
      await settle()
      for (const r of [feishu, wecom]) expect(r.messages).toHaveLength(3)
      expect(undelivered()).toEqual([])
    } finally {
      await stop()
    }
  })

  test('a digest still gathering when the server closes goes out then', async () => {
    await start('both')
    try {
      const s = await makeShopper(t.app, t.db, t.clock)
      await topUp(t.app, s, 300)
      for (let i = 0; i < 3; i++) expect((await withdraw(s, 100)).body.code).toBe(200)
      await until(() => feishu.messages.length === 1 && wecom.messages.length === 1, 'the first alert')
    } finally {
      await stop()
    }
    for (const r of [feishu, wecom]) {
      expect(r.messages).toHaveLength(2)
      expect(r.messages[1]).toMatch(/^【提现申请汇总】用户 #\d+ T\*\*\*r 在 10 分钟内又提交了 2 笔提现申请（#\d+ 至 #\d+，共 2\.00 元）/)
    }
  })

  test('25 shoppers at once: WeCom gets at most its pace a minute, none refused; the rest is folded into one line at close', async () => {
    await start('wecom')
    const pace = ROBOT_PACE.wecom[0].max
    try {
      const shoppers: Shopper[] = []
      for (let i = 0; i < 25; i++) {
        const s = await makeShopper(t.app, t.db, t.clock)
        await topUp(t.app, s, 100)
        shoppers.push(s)
      }
      const answers = await Promise.all(shoppers.map(s => withdraw(s, 100)))
      expect(answers.every(a => a.body.code === 200)).toBe(true)
      await until(() => wecom.messages.length === pace, `${pace} alerts`)
      await settle()
      expect(wecom.messages).toHaveLength(pace)
    } finally {
      await stop()
    }
    expect(wecom.messages).toHaveLength(pace + 1)
    expect(wecom.messages[pace]).toBe(`【提醒汇总】提醒过多，另有 ${25 - pace} 条已合并，请在编辑器中查看全部申请与留言`)
    expect(undelivered()).toEqual([])
  })

  test('Feishu takes 5 a second: 10 alerts at once arrive paced, none refused', async () => {
    await start('both')
    try {
      const shoppers: Shopper[] = []
      for (let i = 0; i < 10; i++) {
        const s = await makeShopper(t.app, t.db, t.clock)
        await topUp(t.app, s, 100)
        shoppers.push(s)
      }
      const answers = await Promise.all(shoppers.map(s => withdraw(s, 100)))
      expect(answers.every(a => a.body.code === 200)).toBe(true)
      await until(() => feishu.messages.length === 10 && wecom.messages.length === 10, 'the ten alerts').catch(err => { throw new Error(`${err.message}: ${feishu.messages.length}/${wecom.messages.length} ${undelivered().join('\n')}`) })
      expect(undelivered()).toEqual([])
    } finally {
      await stop()
    }
  })
})
