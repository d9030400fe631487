/**
 * How a combine's proof is checked on the device: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { CombineProof } from '~types/shop'
import { fairDigest, fairDraw, serverSeedHash } from '~types/fair'
import { toHex } from '~types/crypto'

export interface CombineCheck { hashOk: boolean; drawOk: boolean; digest: string }

/**
 * A combine's proof recomputed on this device with the shared HMAC-SHA256 (types/fair.ts), no server
 * involved: the revealed server seed against its published hash, and the draw against the design
 * (null while the server seed is not revealed).
 */
export function checkCombineProof (p: CombineProof, designId: number): CombineCheck | null {
  if (!p.serverSeed) return null
  const d = fairDraw(p.serverSeed, p.clientSeed, p.nonce, p.weights)
  return {
    hashOk: serverSeedHash(p.serverSeed) === p.serverSeedHash,
    drawOk: d.value === p.value && d.index === p.index && d.round === p.round && d.word === p.word && p.designIds[d.index] === designId,
    digest: toHex(fairDigest(p.serverSeed, p.clientSeed, p.nonce, p.round))
  }
}
