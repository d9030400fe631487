/**
 * A log line per request only where someone reads them (issue 48): `npm start` in development printed a
 * JSON line for every request and buried its start banner. Production (and the tests) log each request;
 * development does when LOG_LEVEL is set (test/e2e/run.js sets LOG_LEVEL=info and scans the log).
 */
import { createTestApp, get } from './support/app'

const requestLines = (logs: string[]) => logs.filter(l => /"msg":"(incoming request|request completed)"/.test(l))

describe('request logs', () => {
  test.each([
    [{ NODE_ENV: 'development' }, 0],
    [{ NODE_ENV: 'development', LOG_LEVEL: 'info' }, 2],
    [{ NODE_ENV: 'production' }, 2]
  ])('%j: %d lines for one request', async (env, lines) => {
    const t = await createTestApp('sqlite', { env })
    try {
      await get(t.app, '/healthz')
      expect(requestLines(t.logs)).toHaveLength(lines)
    } finally {
      await t.close()
    }
  })
})
