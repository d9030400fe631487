/**
 * Jest's test sequencer for the server tests: the files run longest first, by the seconds each took
 * (SECONDS; a file not listed counts DEFAULT), so that the run ends on short files. `--shard=i/n`
 * (SERVER_SHARDS in scripts/test-all.js) deals the files out longest first, each to the shard with the
 * least so far: Jest's own shards split by a hash of the path, which put the fuzz and the backup drill
 * in one shard.
 */
const path = require('node:path')
const Sequencer = require('@jest/test-sequencer').default

/**
 * Seconds per file under test/server, both databases, measured with two workers on 2 cores and
 * nothing else running (2026-11-28); the rest count DEFAULT. Refresh from a run's PASS lines when a
 * file grows a lot.
 */
const SECONDS = {
  'fuzz.test.ts': 171,
  'vision.test.ts': 66,
  'reliability/backup-drill.test.ts': 62,
  'tasks.test.ts': 53,
  'reliability/workers.test.ts': 45,
  'reliability/money-properties.test.ts': 41,
  'reliability/crash.test.ts': 38,
  'login-settings.test.ts': 32,
  'media-s3.test.ts': 28,
  'reliability/compiled-server.test.ts': 25,
  'alert-floods.test.ts': 21,
  'complaints.test.ts': 17,
  'case-spread.test.ts': 16,
  'reliability/ai-budget-processes.test.ts': 16,
  'reliability/scale-out.test.ts': 15,
  'security.test.ts': 15,
  'show.test.ts': 15,
  'rate-limits.test.ts': 14,
  'combine.test.ts': 14,
  'operators.test.ts': 14,
  'openapi.test.ts': 14,
  'reliability/pgbouncer.test.ts': 13,
  'metrics.test.ts': 13,
  'withdrawals.test.ts': 12,
  'purchase.test.ts': 11,
  'speech.test.ts': 11,
  'guardian-consent.test.ts': 11,
  'open-ahead.test.ts': 11,
  'account-races.test.ts': 10,
  'show-moderation.test.ts': 10,
  'after-draw.test.ts': 10,
  'idempotent-twins.test.ts': 10,
  'orders.test.ts': 10,
  'boundaries.test.ts': 10,
  'code-login.test.ts': 9,
  'props.test.ts': 9,
  'account-keys.test.ts': 9,
  'purchase-postgres.test.ts': 9,
  'operator-routes.test.ts': 9
}
const DEFAULT = 5
const TESTS = path.resolve(__dirname, '../server')

const seconds = (file) => SECONDS[path.relative(TESTS, file).split(path.sep).join('/')] ?? DEFAULT

class BalancedSequencer extends Sequencer {
  /**
   * The longest files first, by SECONDS. Jest's own order needs the durations of an earlier run, which
   * a fresh clone (CI) does not have, and falls back to file sizes: small files that wait long (the
   * crash, workers and backup drills, which start servers and pace bursts) came last, and the two
   * workers spent the end of the run mostly waiting on them.
   */
  sort (tests) {
    return [...tests].sort((a, b) => seconds(b.path) - seconds(a.path) || (a.path < b.path ? -1 : 1))
  }

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
