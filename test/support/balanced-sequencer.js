/**
 * Jest's test sequencer for the server tests, with shards of about equal length: `--shard=i/n` deals
 * the files out longest first, each to the shard with the least so far, by the seconds each took
 * (SECONDS; a file not listed counts DEFAULT). Jest's own shards split by a hash of the path, which
 * put the fuzz and the backup drill (a third of all the time) in one shard. npm test runs the server
 * tests as shards so that each is a step of one processor the scheduler can place beside the others
 * (scripts/test-all.js). Within a shard, Jest's own order (the longest first, once it has timings).
 */
const path = require('node:path')
const Sequencer = require('@jest/test-sequencer').default

/**
 * Seconds per file under test/server, both databases, measured with two workers on 2 cores
 * (2026-11-27); the rest count DEFAULT. Refresh from a run's PASS lines when a file grows a lot.
 */
const SECONDS = {
  'fuzz.test.ts': 244,
  'reliability/backup-drill.test.ts': 121,
  'vision.test.ts': 99,
  'reliability/workers.test.ts': 60,
  'reliability/crash.test.ts': 53,
  'tasks.test.ts': 52,
  'security.test.ts': 42,
  'reliability/money-properties.test.ts': 41,
  'login-settings.test.ts': 39,
  'after-draw.test.ts': 37,
  'reliability/compiled-server.test.ts': 30,
  'alert-floods.test.ts': 26,
  'reliability/scale-out.test.ts': 24,
  'metrics.test.ts': 20,
  'media-s3.test.ts': 19,
  'reliability/pgbouncer.test.ts': 19,
  'reliability/ai-budget-processes.test.ts': 18,
  'complaints.test.ts': 17,
  'openapi.test.ts': 17,
  'case-spread.test.ts': 16,
  'rate-limits.test.ts': 16,
  'wechat-login.test.ts': 15,
  'speech.test.ts': 14,
  'combine.test.ts': 14,
  'withdrawals.test.ts': 14,
  'operators.test.ts': 14,
  'address-races.test.ts': 13,
  'show.test.ts': 12,
  'code-login.test.ts': 12,
  'idempotent-twins.test.ts': 12,
  'operator-routes.test.ts': 12
}
const DEFAULT = 6
const TESTS = path.resolve(__dirname, '../server')

const seconds = (file) => SECONDS[path.relative(TESTS, file).split(path.sep).join('/')] ?? DEFAULT

class BalancedSequencer extends Sequencer {
  shard (tests, { shardIndex, shardCount }) {
    const shards = Array.from({ length: shardCount }, () => ({ tests: [], seconds: 0 }))
    const longestFirst = [...tests].sort((a, b) => seconds(b.path) - seconds(a.path) || (a.path < b.path ? -1 : 1))
    for (const test of longestFirst) {
      const lightest = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a))
      lightest.tests.push(test)
      lightest.seconds += seconds(test.path)
    }
    return shards[shardIndex - 1].tests
  }
}

module.exports = BalancedSequencer
module.exports.seconds = seconds
