/**
 * A raffle's draw recomputed (types/raffle.ts): pure TypeScript, the same code on the phone and in the
 * server's tests.
 */
import { sha256Hex } from './crypto'
import { fairPicks, serverSeedHash } from './fair'
import type { RaffleProof } from './raffle'

export const raffleListHash = (dropId: number, codes: readonly string[]) => sha256Hex(`raffle:${dropId}:${codes.join(',')}`)

/**
 * Each round's winners, from the seed and the sorted list: round 1 picks `places[0]` among every code;
 * round r picks `places[r-1]` among the codes not yet won (in list order) with `${listHash}:${r}`.
 */
export function raffleWinners (seed: string, listHash: string, codes: readonly string[], places: readonly number[]): string[][] {
  const won = new Set<string>()
  return places.map((k, i) => {
    const round = i + 1
    const pool = codes.filter(c => !won.has(c))
    const winners = fairPicks(seed, round === 1 ? listHash : `${listHash}:${round}`, pool.length, k).map(j => pool[j])
    for (const w of winners) won.add(w)
    return winners
  })
}

export interface RaffleCheck {
  seedMatches: boolean
  listMatches: boolean
  /** The list is sorted and has no code twice. */
  listOrdered: boolean
  /** Each round's winners as recomputed (in the order drawn), and whether they are the published ones. */
  winners: string[][]
  winnersMatch: boolean
  /** The caller's code is on the list (null: no code given). */
  included: boolean | null
  holds: boolean
}

/** Null until the draw (no seed or list yet). */
export function raffleCheck (p: RaffleProof, myCode: string | null = null): RaffleCheck | null {
  if (p.seed === null || p.codes === null || p.listHash === null) return null
  const seedMatches = serverSeedHash(p.seed) === p.seedHash.toLowerCase()
  const listMatches = raffleListHash(p.dropId, p.codes) === p.listHash.toLowerCase()
  const listOrdered = p.codes.every((c, i) => i === 0 || p.codes![i - 1] < c)
  const winners = raffleWinners(p.seed, p.listHash.toLowerCase(), p.codes, p.rounds.map(r => r.places))
  // a round's winners as a set (the proof lists them in list order; the draw's order does not matter)
  const sorted = (codes: readonly string[]) => JSON.stringify([...codes].sort())
  const winnersMatch = p.rounds.length > 0 && p.rounds[0].places === Math.min(p.places, p.codes.length) &&
    winners.every((w, i) => w.length === p.rounds[i].places && sorted(w) === sorted(p.rounds[i].winners))
  const included = myCode === null ? null : p.codes.includes(myCode)
  return { seedMatches, listMatches, listOrdered, winners, winnersMatch, included, holds: seedMatches && listMatches && listOrdered && winnersMatch && included !== false }
}
