/** The schema fuzz (fuzz-suite.ts) on SQLite; fuzz-postgres.test.ts runs it on PostgreSQL in another worker. */
import { testDialects } from './support/db'
import { fuzzSuite } from './fuzz-suite'

if (testDialects().includes('sqlite')) fuzzSuite('sqlite')
else test.skip('schema fuzz on sqlite (TEST_DIALECTS leaves it out)', () => {})
