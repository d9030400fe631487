/**
 * The provably fair draw of combines and props (PRODUCT.md "Combine", issue 9), the same code on the
 * server and on the phone (pure TypeScript, no dependencies):
 *
 *   digest(r) = HMAC-SHA256(key = the server seed as text (64 hex digits, UTF-8),
 *                           message = `${clientSeed}:${nonce}` for r = 0, `${clientSeed}:${nonce}:${r}` after)
 *   Each digest gives 8 big-endian 32-bit words, taken in order (digest 0, then 1, ...). For a range
 *   of n outcomes the first word w below floor(2^32 / n) * n gives w mod n: words at or above that
 *   limit are rejected, so every outcome is equally likely (no modulo bias).
 *   A weighted pool draws r in [0, sum of weights) and picks the entry whose cumulative range holds r,
 *   in the pool's published order.
 *
 * The server publishes SHA-256(serverSeed) before any draw with it; rotating the seed reveals it, and
 * anyone can then recompute every draw made with it.
 */
import { hmacSha256, sha256Hex } from './crypto'

export const FAIR_WORDS_PER_DIGEST = 8
/** A pool's weights must sum to at most this (the draw takes 32-bit words). */
export const FAIR_MAX_TOTAL = 0xffffffff

export const fairMessage = (clientSeed: string, nonce: number, round: number) =>
  round === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`

export const fairDigest = (serverSeed: string, clientSeed: string, nonce: number, round: number) =>
  hmacSha256(serverSeed, fairMessage(clientSeed, nonce, round))

/** What the server committed to: the SHA-256 (hex) of the server seed's text. */
export const serverSeedHash = (serverSeed: string) => sha256Hex(serverSeed)

export interface FairInt {
  /** In [0, n). */
  value: number
  /** Which digest and which of its words gave it (0-based); earlier words were rejected. */
  round: number
  word: number
}

/** An unbiased integer in [0, n) from the digests, by rejection sampling. */
export function fairInt (n: number, digestOf: (round: number) => Uint8Array, maxRounds = 64): FairInt {
  if (!Number.isInteger(n) || n < 1 || n > FAIR_MAX_TOTAL) throw new RangeError(`range ${n} is not an integer in [1, 2^32 - 1]`)
  const limit = Math.floor(0x100000000 / n) * n
  for (let round = 0; round < maxRounds; round++) {
    const d = digestOf(round)
    for (let word = 0; word < FAIR_WORDS_PER_DIGEST; word++) {
      const w = ((d[word * 4] << 24) | (d[word * 4 + 1] << 16) | (d[word * 4 + 2] << 8) | d[word * 4 + 3]) >>> 0
      if (w < limit) return { value: w % n, round, word }
    }
  }
  // each word is rejected with probability below 1/2: 512 rejections in a row do not happen
  throw new Error('no word accepted')
}

export interface FairDraw extends FairInt {
  /** The index in the pool of the entry drawn. */
  index: number
  /** The sum of the weights (the range the integer was drawn from). */
  total: number
}

/** Draws an entry of a weighted pool (weights: positive integers, in the published order). */
export function fairDraw (serverSeed: string, clientSeed: string, nonce: number, weights: readonly number[]): FairDraw {
  if (!weights.length || weights.some(w => !Number.isInteger(w) || w <= 0)) throw new RangeError('weights must be positive integers')
  const total = weights.reduce((s, w) => s + w, 0)
  const r = fairInt(total, round => fairDigest(serverSeed, clientSeed, nonce, round))
  let index = 0
  for (let acc = weights[0]; r.value >= acc; acc += weights[++index]);
  return { ...r, index, total }
}

/**
 * A weighted pool's published odds: each entry's weight / total in parts per million, rounded. The
 * server publishes these with a recipe (domain/combine.ts) and the editor's recipe form previews them
 * with this same function as the operator types the weights.
 */
export function poolOddsPpm (weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0)
  return weights.map(w => (total > 0 ? Math.round(1_000_000 * w / total) : 0))
}

/**
 * k distinct winners among n entries of a published list (a kuji set's Double Chance, a raffle drop):
 * pick i (0-based) draws an unbiased index among the entries not yet picked, in their list order, from
 * fairDigest(seed, listHash, i, round), i.e. HMAC-SHA256(seed, `${listHash}:${i}` then `:${round}`).
 * Answers the winners' indexes in the list, in the order they were picked. The seed's hash is published
 * before the list exists, the list's hash once it is closed; so neither side can steer the draw.
 */
export function fairPicks (seed: string, listHash: string, n: number, k: number): number[] {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(k) || k < 0) throw new RangeError('n and k must be non-negative integers')
  const left = Array.from({ length: n }, (_, i) => i)
  const picked: number[] = []
  for (let i = 0; i < Math.min(k, n); i++) {
    const { value } = fairInt(left.length, round => fairDigest(seed, listHash, i, round))
    picked.push(left.splice(value, 1)[0])
  }
  return picked
}
