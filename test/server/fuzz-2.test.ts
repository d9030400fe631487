/** The schema fuzz (fuzz-suite.ts) of operation 2, 4, 6 ... of the document, on each database. */
import { fuzzSuite } from './fuzz-suite'

fuzzSuite({ part: 2, of: 2 })
