/** What a dialect's backup hands over to the archive, and what both dialects check on a restore. */
import type { Manifest, ManifestPart } from './archive'
import { OpsError } from './errors'

export interface Snapshot {
  /** Taken just before the consistent read began: every transaction committed before it is in the snapshot. */
  takenAt: Date
  part: ManifestPart
  /** Where the part's bytes are, until the archive is written. */
  partFile: string
  migrations: string[]
  rowCounts: Record<string, number>
  media: { files: number; bytes: number }
  source: Record<string, string>
}

/** Table names counted into a manifest (every table of the shop is named so). */
export const COUNTED_TABLE = /^[a-z_][a-z0-9_]{0,62}$/

/** The tables a summary line names. */
const SUMMARY_TABLES = ['users', 'orders', 'purchases', 'prizes', 'ledger_transactions', 'withdrawals']

export function summary (m: Pick<Manifest, 'migrations' | 'rowCounts' | 'media'>): string {
  const counts = SUMMARY_TABLES.filter(t => t in m.rowCounts).map(t => `${t} ${m.rowCounts[t]}`)
  const mb = (m.media.bytes / 1048576).toFixed(1)
  return `${m.migrations.count} migrations (latest ${m.migrations.latest ?? 'none'}); ${counts.join(', ')}; media ${m.media.files} files (${mb} MB)`
}

/** Compares a restored copy's row counts with the manifest's; throws naming the first difference. */
export function checkCounts (expected: Record<string, number>, found: Record<string, number>): void {
  for (const [table, n] of Object.entries(expected)) {
    if (!(table in found)) throw new OpsError(`the restored copy has no table ${table}, which the backup holds; nothing was changed`)
    if (found[table] !== n) throw new OpsError(`the restored copy's table ${table} has ${found[table]} rows, the backup counted ${n}; nothing was changed`)
  }
  const extra = Object.keys(found).filter(t => !(t in expected))
  if (extra.length) throw new OpsError(`the restored copy has tables the backup did not count (${extra.slice(0, 3).join(', ')}); nothing was changed`)
}
