/**
 * How a prize's proof is checked on the device: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { PrizeVerifyResult } from '~types/afterDraw'
import { commitInput, sha256Hex } from '@/utils/sha256'

export interface ProofCheck { hash: string; matches: boolean; holds: boolean }

/** The case proof of a checked prize, recomputed here: the hash against the commitment, the slot against the design. */
export function checkProof (r: PrizeVerifyResult): ProofCheck | null {
  const { proof } = r
  if (!proof || !proof.revealed || !proof.arrangement || !proof.salt) return null
  const hash = sha256Hex(commitInput(r.caseId, proof.arrangement, proof.salt))
  return { hash, matches: hash === proof.commit.toLowerCase(), holds: proof.arrangement[r.slot - 1] === r.design.id }
}
