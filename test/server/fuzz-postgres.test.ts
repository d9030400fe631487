/** The schema fuzz (fuzz-suite.ts) on PostgreSQL; fuzz-sqlite.test.ts runs it on SQLite in another worker. */
import { testDialects } from './support/db'
import { fuzzSuite } from './fuzz-suite'

if (testDialects().includes('postgres')) fuzzSuite('postgres')
else test.skip('schema fuzz on postgres (PG_TESTS=off or TEST_DIALECTS leaves it out)', () => {})
