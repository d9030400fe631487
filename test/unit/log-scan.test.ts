/**
 * The e2e run's log scan (test/e2e/logScan.js) catches a secret sent in a query value (issue 48 item 5):
 * shown on a log as the server wrote it before the fix, and on one written after it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { scanLog, CANARY_REQUESTS } = require('../e2e/logScan')

const secret = 'e2eSecret0123456789abcdef01234567'
const line = (url: string) => JSON.stringify({ level: 30, reqId: 'r1', req: { method: 'GET', url, remoteAddress: '127.0.0.1' }, msg: 'incoming request' })

test('a secret logged verbatim in a query value is a finding', () => {
  const leaky = CANARY_REQUESTS(secret).map((r: { url: string }) => line(r.url)).join('\n')
  const found = scanLog(leaky, { secret })
  expect(found.filter((f: { kind: string }) => f.kind === 'secret in a query value')).toHaveLength(CANARY_REQUESTS(secret).length)
})

test('the redacted log passes; one that dropped the canary requests does not', () => {
  const redacted = CANARY_REQUESTS(secret).map((r: { logged: string }) => line(r.logged)).join('\n')
  expect(scanLog(redacted, { secret })).toEqual([])
  const some = CANARY_REQUESTS(secret).slice(1).map((r: { logged: string }) => line(r.logged)).join('\n')
  expect(scanLog(some, { secret })).toEqual([expect.objectContaining({ kind: 'canary request not logged as redacted' })])
  // a secret in any other line (an error message) is found too
  expect(scanLog(`${redacted}\n{"level":50,"msg":"failed for ?token=${secret}"}`, { secret })).toEqual([expect.objectContaining({ kind: 'secret in a query value' })])
})

test('a phone is found, the digits of a fraction are not (a response time of 32.13733399997 ms)', () => {
  const timing = JSON.stringify({ level: 30, reqId: 'r2', res: { statusCode: 200 }, responseTime: 32.13733399997, msg: 'request completed' })
  expect(scanLog(timing).filter((f: { kind: string }) => f.kind === 'phone')).toEqual([])
  const leaked = JSON.stringify({ level: 30, msg: 'sent to 13733399997' })
  expect(scanLog(leaked)).toEqual([expect.objectContaining({ kind: 'phone', match: '13733399997' })])
})
