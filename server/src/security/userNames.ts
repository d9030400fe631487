/**
 * User names are compared by one key, computed here and nowhere else: Unicode NFKC (full-width and
 * compatibility forms become their plain letters, composed and decomposed "Ä" become one), then full
 * case folding, then NFKC again. JavaScript has no case-fold function: upper- then lower-casing, repeated
 * until it settles (capital ẞ lower-cases to ß, which only a second round turns into "ss"), folds what
 * the full folding of CaseFolding.txt folds for names people type (ß, ẞ and SS; ς, σ and Σ; ligatures
 * such as ﬁ; ſ), with no locale, so the same on every server and database whatever its collation.
 * Checked for every code point (test/server/account-keys.test.ts): a name's key does not change when the
 * name is decomposed (NFD), upper-cased or lower-cased, and folding a folded name changes nothing.
 *
 * Limits, on purpose or not worth the cost:
 *  - it is not Unicode's fold letter for letter: dotless ı folds to i (Unicode keeps it apart), Cherokee
 *    folds to its small letters (Unicode: capitals); either way one key per name, only stricter;
 *  - İ folds to "i" + U+0307 as in Unicode's full folding, so "İstanbul" and "istanbul" stay two names
 *    (no Turkish tailoring);
 *  - look-alikes from other scripts (Cyrillic "а" and Latin "a") and invisible characters (U+200B,
 *    U+00AD) are not merged: that is confusable detection (UTS #39), not folding;
 *  - NFKC merges more than case: "①" and "1", "ⅷ" and "viii", "㍿" and "株式会社" are one name.
 *
 * The database stores sha256(key) in users.user_name_key under a UNIQUE index: a fixed 64 characters
 * whatever the name (NFKC can make a name many times longer), and the one rule for SQLite and
 * PostgreSQL. The name itself is stored as typed, trimmed, in NFC.
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
