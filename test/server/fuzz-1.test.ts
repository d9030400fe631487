/** The schema fuzz (fuzz-suite.ts) of operation 1, 3, 5 ... of the document, on each database. */
import { fuzzSuite } from './fuzz-suite'

fuzzSuite({ part: 1, of: 2 })
