/** 一番赏 sets (types/kuji.ts): the board, the caller's turn, a set's proof. Draws are casePurchase calls. */
import type { kujiRoutes } from '~types/kuji'
import { postRoute } from './request'

type R = typeof kujiRoutes

export const kujiApi = {
  board: (seriesId: number) => postRoute<R['board']>('/api/kujiBoard', { seriesId }),
  turn: (seriesId: number, action: 'join' | 'leave') => postRoute<R['turn']>('/api/kujiTurn', { seriesId, action }),
  proof: (setId: number) => postRoute<R['proof']>('/api/kujiProof', { setId })
}
