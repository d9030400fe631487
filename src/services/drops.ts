/** Drops (types/drop.ts): the public proof, and the operator's drop screen. */
import type { DropCreateRequest, dropRoutes } from '~types/drop'
import { postRoute } from './request'

type R = typeof dropRoutes

export const dropsApi = {
  /** waitMs > 0: held while the caller waits in line, up to that long (types/drop.ts QueueRequest). */
  /** waitMs > 0: held while in line at seenPosition (the place last shown; null: none yet). */
  queue: (dropId: number, waitMs = 0, seenPosition: number | null = null) => postRoute<R['queue']>('/api/dropQueue', waitMs > 0 ? { dropId, waitMs, seenPosition } : { dropId }),
  proof: (dropId: number) => postRoute<R['proof']>('/api/dropProof', { dropId }),
  list: (seriesId: number) => postRoute<R['list']>('/api/operator/drops', { seriesId }),
  create: (body: DropCreateRequest) => postRoute<R['create']>('/api/operator/dropCreate', body)
}
