/**
 * The first character of a name as people see it (an avatar's letter): a whole grapheme, so an emoji
 * nickname gives its emoji, not half of a surrogate pair (issue 21). Intl.Segmenter where the platform
 * has it; elsewhere a careful fallback for the clusters names are made of: a code point with the marks,
 * variation selectors, skin tones and keycap that follow it, emoji joined by ZWJ, and flag pairs.
 */
// single code points that extend a cluster (tested one at a time, so a class of them is what is meant)
// eslint-disable-next-line no-misleading-character-class
const EXTEND = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u
const REGIONAL = /[\u{1f1e6}-\u{1f1ff}]/u

export function firstGrapheme (text: string): string {
  const s = text.trim()
  if (!s) return ''
  const Segmenter = (Intl as unknown as { Segmenter?: new (l?: string, o?: { granularity: 'grapheme' }) => { segment: (s: string) => Iterable<{ segment: string }> } }).Segmenter
  if (typeof Segmenter === 'function') {
    // eslint-disable-next-line no-unreachable-loop -- the first segment is the answer
    for (const { segment } of new Segmenter(undefined, { granularity: 'grapheme' }).segment(s)) return segment
  }
  const cps = [...s]
  let out = cps[0]
  let i = 1
  if (REGIONAL.test(out) && cps[1] && REGIONAL.test(cps[1])) return out + cps[1]
  while (i < cps.length) {
    const c = cps[i]
    if (EXTEND.test(c)) { out += c; i += 1 } else if (c === '\u200d' && cps[i + 1]) { out += c + cps[i + 1]; i += 2 } else break
  }
  return out
}

/** An avatar's letter: the first grapheme, upper-cased when it is a letter ("?" for no name). */
export function avatarInitial (name: string | null | undefined): string {
  const g = firstGrapheme(name ?? '')
  if (!g) return '?'
  // one letter stays one letter ("ß" would become "SS")
  const up = g.toUpperCase()
  return [...up].length === [...g].length ? up : g
}
