/**
 * User names are compared by one key, computed here and nowhere else: Unicode NFKC (full-width and
 * compatibility forms become their plain letters, composed and decomposed "Ä" become one), then full
 * case folding (upper- then lower-casing, repeated until it settles), then NFKC again. JavaScript has no case-fold function; upper- then lower-casing folds
 * what the full folding of CaseFolding.txt folds for names people type (ß and ẞ -> ss, final ς -> σ,
 * ligatures), the same on every database whatever its collation or locale. (It differs from Unicode's
 * fold for a few letters, such as Cherokee, where it still gives one key per name.)
 *
 * The database stores sha256(key) in users.user_name_key under a UNIQUE index: a fixed 64 characters
 * whatever the name (NFKC can make a name many times longer), and the one rule for SQLite and
 * PostgreSQL. The name itself is stored as typed, in NFC.
 */
import { createHash } from 'node:crypto'

export function foldUserName (name: string): string {
  let folded = name.trim().normalize('NFKC')
  // until it settles: capital ẞ lower-cases to ß, which only a second round turns into "ss"
  for (let round = 0; round < 3; round++) {
    const next = folded.toUpperCase().toLowerCase().normalize('NFKC')
    if (next === folded) break
    folded = next
  }
  return folded
}

/** What users.user_name_key holds for a name. */
export function userNameKey (name: string): string {
  return createHash('sha256').update(foldUserName(name), 'utf8').digest('hex')
}

/** The name as stored and shown. */
export function displayUserName (name: string): string {
  return name.trim().normalize('NFC')
}
