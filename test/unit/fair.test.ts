/**
 * The shared SHA-256 / HMAC-SHA256 and the provably fair draw (types/crypto.ts, types/fair.ts): RFC 4231
 * vectors, agreement with node's crypto on random inputs, rejection sampling at its edges, and the
 * odds of a weighted pool by chi-square over 100,000 draws (z = 5).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { hmacSha256, sha256Hex, toHex } from '../../types/crypto'
import { fairDigest, fairDraw, fairInt, fairMessage, serverSeedHash } from '../../types/fair'

test('HMAC-SHA256: RFC 4231 test cases 1, 2, 3, 6 and 7', () => {
  const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'))
  expect(toHex(hmacSha256(hex('0b'.repeat(20)), 'Hi There'))).toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7')
  expect(toHex(hmacSha256('Jefe', 'what do ya want for nothing?'))).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843')
  expect(toHex(hmacSha256(hex('aa'.repeat(20)), hex('dd'.repeat(50))))).toBe('773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe')
  // a key longer than the block (131 bytes) is hashed first
  expect(toHex(hmacSha256(hex('aa'.repeat(131)), 'Test Using Larger Than Block-Size Key - Hash Key First')))
    .toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54')
  expect(toHex(hmacSha256(hex('aa'.repeat(131)), 'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.')))
    .toBe('9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2')
})

test('SHA-256 and HMAC agree with node\'s crypto on 300 random inputs (UTF-8 text and bytes, every length to 200)', () => {
  for (let i = 0; i < 300; i++) {
    const key = randomBytes(i % 150)
    const data = randomBytes(i % 200)
    expect(toHex(hmacSha256(key, data))).toBe(createHmac('sha256', key).update(data).digest('hex'))
    expect(sha256Hex(data)).toBe(createHash('sha256').update(data).digest('hex'))
  }
  const text = '盲盒 🎁 seed:42'
  expect(toHex(hmacSha256(text, text))).toBe(createHmac('sha256', Buffer.from(text, 'utf8')).update(text, 'utf8').digest('hex'))
})

test('the draw: message format, digest, and the published seed hash', () => {
  const seed = 'a'.repeat(64)
  expect(fairMessage('lucky', 7, 0)).toBe('lucky:7')
  expect(fairMessage('lucky', 7, 2)).toBe('lucky:7:2')
  expect(toHex(fairDigest(seed, 'lucky', 7, 0))).toBe(createHmac('sha256', seed).update('lucky:7').digest('hex'))
  expect(serverSeedHash(seed)).toBe(createHash('sha256').update(seed).digest('hex'))
  // a known outcome, written down once: a change of the algorithm must show here
  const d = fairDraw(seed, 'lucky', 7, [60, 30, 10])
  const first = parseInt(createHmac('sha256', seed).update('lucky:7').digest('hex').slice(0, 8), 16)
  expect(d).toEqual({ value: first % 100, round: 0, word: 0, index: first % 100 < 60 ? 0 : first % 100 < 90 ? 1 : 2, total: 100 })
})

test('rejection sampling: words at or above floor(2^32 / n) * n are skipped, across digests too', () => {
  const words = (...ws: number[]) => {
    const b = new Uint8Array(32)
    const v = new DataView(b.buffer)
    ws.forEach((w, i) => v.setUint32(i * 4, w))
    return b
  }
  const n = 0x80000001 // limit = n: about half of all words are rejected
  const high = 0xffffffff
  expect(fairInt(n, () => words(high, 5))).toEqual({ value: 5, round: 0, word: 1 })
  const digests = [words(high, high, high, high, high, high, high, high), words(n, n - 1)]
  expect(fairInt(n, r => digests[r])).toEqual({ value: n - 1, round: 1, word: 1 })
  // n = 3: limit 4294967295 = 3 * 1431655765, so 0xffffffff alone is rejected
  expect(fairInt(3, () => words(0xffffffff, 0xfffffffe))).toEqual({ value: 0xfffffffe % 3, round: 0, word: 1 })
  expect(() => fairInt(0, () => words())).toThrow(RangeError)
  expect(() => fairDraw('s', 'c', 1, [1, 0])).toThrow(RangeError)
})

test('a weighted pool is drawn with its published odds: chi-square over 100,000 draws, z = 5', () => {
  const weights = [500, 300, 150, 45, 5]
  const total = weights.reduce((s, w) => s + w, 0)
  const seed = randomBytes(32).toString('hex')
  const counts = weights.map(() => 0)
  const N = 100_000
  for (let nonce = 0; nonce < N; nonce++) counts[fairDraw(seed, 'chi', nonce, weights).index]++
  const chi = counts.reduce((s, c, i) => s + ((c - N * weights[i] / total) ** 2) / (N * weights[i] / total), 0)
  const k = weights.length - 1
  // Wilson-Hilferty: chi-square with k degrees of freedom as a normal; z = 5 is a 1 in 3.5 million false alarm
  const z = ((chi / k) ** (1 / 3) - (1 - 2 / (9 * k))) / Math.sqrt(2 / (9 * k))
  expect(z).toBeLessThan(5)
  expect(counts[4]).toBeGreaterThan(0)
})
