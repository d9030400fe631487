/**
 * The one key series names are searched by (issue 27): Unicode NFKC (full-width letters and digits become
 * their plain forms, half-width katakana full-width), case folding as user names fold
 * (security/userNames.ts: upper- then lower-casing until it settles, so "ß", "SS" and "ss" meet), every
 * default-ignorable code point dropped (security/textFold.ts: a zero-width space or soft hyphen typed or
 * pasted into a name or a query, issue 48; migration 0035 keyed the names stored before), and every run
 * of white space dropped, so "Hello  Kitty", "ｈｅｌｌｏｋｉｔｔｙ" and " hello\u200bkitty " are one key.
 * Computed here and nowhere else, in the application: SQLite's lower() and PostgreSQL's under locale C
 * fold only ASCII.
 */
import { foldForMatching } from '../security/textFold'

export function searchKey (text: string): string {
  return foldForMatching(text.normalize('NFKC').replace(/\s+/gu, '')).replace(/\s+/gu, '')
}

/**
 * Every suffix of a name's key: a text matches a name when it is the start of one of them (a substring
 * match that an index range answers). Titles are at most 60 characters; a suffix (and a query) is cut
 * to SUFFIX_MAX characters, which only a name that NFKC makes much longer ever reaches.
 */
export const SUFFIX_MAX = 100

export function keySuffixes (key: string): string[] {
  const chars = [...key]
  const out = new Set<string>()
  for (let i = 0; i < chars.length; i++) out.add(chars.slice(i, i + SUFFIX_MAX).join(''))
  return [...out]
}

/** The upper bound of a prefix range: every text that starts with `prefix` sorts below it (byte order). */
export const prefixEnd = (prefix: string): string => `${prefix}\u{10FFFF}`
