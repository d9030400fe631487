/**
 * The proofs of combines' draws (types/shop.ts CombineProof): what a prize made by combining shows
 * where a prize from a case shows its case's commitment (the prize page, the authenticity check, the
 * packing slip) and what a combine's own answer carries. The server seed is given once it is revealed.
 */
import type { Kysely } from 'kysely'
import type { CombineProof } from '../../../../types/shop'
import type { Database } from '../../db/schema'

type Db = Kysely<Database>

interface PoolItem { designId: number; weight: number }

/** The proofs of some combines, by combine id (unknown ids are left out). */
export async function combineProofs (db: Db, combineIds: number[]): Promise<Map<number, CombineProof>> {
  const ids = [...new Set(combineIds)]
  if (!ids.length) return new Map()
  const rows = await db.selectFrom('combines').innerJoin('fair_seeds', 'fair_seeds.id', 'combines.seed_id')
    .select(['combines.id', 'combines.client_seed', 'combines.nonce', 'combines.pool', 'combines.draw', 'fair_seeds.server_seed', 'fair_seeds.server_seed_hash', 'fair_seeds.status'])
    .where('combines.id', 'in', ids).execute()
  return new Map(rows.map(r => {
    const pool = JSON.parse(r.pool) as PoolItem[]
    const draw = JSON.parse(r.draw) as { value: number; round: number; word: number; index: number }
    const proof: CombineProof = {
      serverSeedHash: r.server_seed_hash,
      serverSeed: r.status === 'revealed' ? r.server_seed : null,
      clientSeed: r.client_seed,
      nonce: Number(r.nonce),
      designIds: pool.map(p => p.designId),
      weights: pool.map(p => p.weight),
      value: draw.value,
      round: draw.round,
      word: draw.word,
      index: draw.index
    }
    return [Number(r.id), proof]
  }))
}

/** The proof of one combine (it exists: a prize's combine_id references it). */
export async function combineProof (db: Db, combineId: number): Promise<CombineProof> {
  const proof = (await combineProofs(db, [combineId])).get(combineId)
  if (!proof) throw new Error(`combine ${combineId} has no proof`)
  return proof
}
