/**
 * Characters a user name may not hold (issue 48): the ones a screen shows as nothing, so "al\u200bice"
 * reads as "alice" and could pose as her. One table for the app's register form and the server, plain
 * numbers rather than a regular expression so every mini-program engine reads it (no `\p{...}` needed).
 *
 * The table is exactly, in Unicode 17.0 (checked against the running Node in
 * test/server/user-name-invisible.test.ts):
 *  - Default_Ignorable_Code_Point (DerivedCoreProperties.txt): zero-width space and joiners, soft hyphen,
 *    word joiner, bidirectional marks and isolates, variation selectors, Hangul fillers, tag characters;
 *  - general categories Cc (controls), Cf (format characters, e.g. U+0600 ARABIC NUMBER SIGN, U+FEFF),
 *    Zl and Zp (line and paragraph separators);
 *  - U+2800 BRAILLE PATTERN BLANK, a symbol drawn as a blank.
 * Ordinary spaces inside a name stay allowed (NFKC folds U+00A0 and U+3000 to a space for the key).
 */
export const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x001F], [0x007F, 0x009F], [0x00AD, 0x00AD], [0x034F, 0x034F], [0x0600, 0x0605],
  [0x061C, 0x061C], [0x06DD, 0x06DD], [0x070F, 0x070F], [0x0890, 0x0891], [0x08E2, 0x08E2],
  [0x115F, 0x1160], [0x17B4, 0x17B5], [0x180B, 0x180F], [0x200B, 0x200F], [0x2028, 0x202E],
  [0x2060, 0x206F], [0x2800, 0x2800], [0x3164, 0x3164], [0xFE00, 0xFE0F], [0xFEFF, 0xFEFF],
  [0xFFA0, 0xFFA0], [0xFFF0, 0xFFFB], [0x110BD, 0x110BD], [0x110CD, 0x110CD], [0x13430, 0x1343F],
  [0x1BCA0, 0x1BCA3], [0x1D173, 0x1D17A], [0xE0000, 0xE0FFF]
]

/** Whether one code point is in the table. */
export function isInvisibleCodePoint (cp: number): boolean {
  for (const [from, to] of INVISIBLE_RANGES) {
    if (cp < from) return false
    if (cp <= to) return true
  }
  return false
}

/** Whether the text holds any character of the table. */
export function hasInvisibleChars (s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i) as number
    if (isInvisibleCodePoint(cp)) return true
    if (cp > 0xFFFF) i++
  }
  return false
}

/** The text without the characters of the table. */
export function dropInvisibleChars (s: string): string {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i) as number
    const wide = cp > 0xFFFF
    if (!isInvisibleCodePoint(cp)) out += wide ? s.slice(i, i + 2) : s[i]
    if (wide) i++
  }
  return out
}
