/**
 * A drop's proof recomputed (types/drop.ts): pure TypeScript with no schema library, so the phone runs
 * the same code as the server and its tests.
 *
 *   root = sha256_hex(`drop:${dropId}:${case commitments in ascending case id, joined by ','}`)
 *   each case: commit = sha256_hex(`${caseId}:${design ids in slot order, joined by ','}:${salt}`)
 */
import { sha256Hex } from './crypto'
import type { DropProof } from './drop'

/** The text the root hashes. */
export const dropRootInput = (dropId: number, caseCommits: readonly string[]) => `drop:${dropId}:${caseCommits.join(',')}`
export const dropRootOf = (dropId: number, caseCommits: readonly string[]) => sha256Hex(dropRootInput(dropId, caseCommits))

export interface DropCheck {
  /** The root recomputed from the published case commitments. */
  root: string
  rootMatches: boolean
  /** Every case revealed (the drop sold out or ended). */
  revealed: boolean
  /** Revealed cases whose arrangement and salt give their commitment / all revealed cases. */
  casesMatching: number
  casesRevealed: number
  /** Revealed cases that held the hidden design (null until every case is revealed). */
  hiddenCounted: number | null
  /** Everything recomputed agrees with what was published: the root, each case, the hidden count. */
  holds: boolean
}

/** Recomputes a drop's proof (on the phone, and in the server's tests). */
export function dropCheck (p: DropProof): DropCheck {
  const root = dropRootOf(p.dropId, p.caseProofs.map(c => c.commit.toLowerCase()))
  const rootMatches = root === p.root.toLowerCase() && p.caseProofs.length === p.cases
  const opened = p.caseProofs.filter(c => c.revealed && c.arrangement && c.salt)
  const casesMatching = opened.filter(c => sha256Hex(`${c.caseId}:${c.arrangement!.join(',')}:${c.salt!}`) === c.commit.toLowerCase()).length
  const revealed = p.caseProofs.length > 0 && opened.length === p.caseProofs.length
  const hiddenCounted = revealed ? opened.filter(c => p.hiddenDesignId !== null && c.arrangement!.includes(p.hiddenDesignId)).length : null
  const holds = rootMatches && casesMatching === opened.length && (hiddenCounted === null || hiddenCounted === p.hiddenCases)
  return { root, rootMatches, revealed, casesMatching, casesRevealed: opened.length, hiddenCounted, holds }
}
