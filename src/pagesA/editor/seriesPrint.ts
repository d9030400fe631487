/**
 * The series form's fingerprint (unsaved changes): kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import { type SeriesForm } from './seriesForm'

/** What a form holds, less the list keys of its designs: equal prints, nothing to lose. */
export const formPrint = (f: SeriesForm) => JSON.stringify({ ...f, designs: f.designs.map(({ key: _key, ...d }) => d) })
