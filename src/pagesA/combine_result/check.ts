/**
 * How a combine's result is checked: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { CombineResult } from '~types/combine'
import { checkCombineProof } from '@/components/CombineProof/proof'

export interface Check { hashOk: boolean; drawOk: boolean }

/** Checks a combine's proof on this device with the shared HMAC-SHA256 (no server involved). */
export function checkCombine (r: CombineResult): Check | null {
  return checkCombineProof(r.proof, r.output.design.id)
}
