/** Raffle drops (types/raffle.ts): enter, the caller's state and result, the proof to recompute. */
import type { raffleRoutes } from '~types/raffle'
import { postRoute } from './request'

type R = typeof raffleRoutes

export const raffleApi = {
  enter: (dropId: number) => postRoute<R['enter']>('/api/raffleEnter', { dropId }),
  status: (dropId: number) => postRoute<R['status']>('/api/raffleStatus', { dropId }),
  proof: (dropId: number) => postRoute<R['proof']>('/api/raffleProof', { dropId })
}
