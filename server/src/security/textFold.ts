/**
 * The key a text is matched by when it is checked against a list (the player show's word list) or
 * searched (domain/searchText.ts): the user-name fold (security/userNames.ts: NFKC, then full case
 * folding) with every default-ignorable code point dropped, before the fold and after it (issue 48).
 *
 * Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt) is what a renderer shows as nothing
 * when it does not support it: zero-width space U+200B, soft hyphen U+00AD, zero-width (non-)joiner
 * U+200C/U+200D, word joiner U+2060, the bidirectional marks and isolates, variation selectors, the
 * Hangul fillers, tag characters. Left in, "spam\u200bword" reads as "spamword" on every screen and
 * matches no listed word. Dropped after the fold too: NFKC turns some into others (U+FFA0 into U+1160).
 *
 * Not folded (a list that should catch these has to list them): look-alikes from other scripts (Cyrillic
 * "а" for Latin "a", UTS #39 confusables), letters spaced out or split by punctuation ("s p a m",
 * "s.p.a.m"), digits or symbols standing in for letters ("sp4m"), pinyin or homophones for Chinese
 * words, and anything drawn in a photo.
 */
import { foldUserName } from './userNames'

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu

/** The text without its default-ignorable code points. */
export const dropIgnorables = (s: string): string => s.replace(IGNORABLE, '')

/** Whether the text holds a default-ignorable code point. */
export const hasIgnorables = (s: string): boolean => /\p{Default_Ignorable_Code_Point}/u.test(s)

/** The matching key: ignorables dropped, NFKC, full case folding, ignorables dropped again. */
export function foldForMatching (s: string): string {
  return dropIgnorables(foldUserName(dropIgnorables(s)))
}
