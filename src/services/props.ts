/** Props (types/props.ts). */
import type { PropBuyRequest, PropUseRequest, propRoutes } from '~types/props'
import type { PageQuery } from '~types/schema'
import { postRoute } from './request'

type P = typeof propRoutes

export const propsApi = {
  state: () => postRoute<P['state']>('/api/props', {}),
  buy: (body: PropBuyRequest) => postRoute<P['buy']>('/api/propBuy', body),
  use: (body: PropUseRequest) => postRoute<P['use']>('/api/propUse', body),
  caseHints: (caseId: number) => postRoute<P['caseHints']>('/api/caseHints', { caseId }),
  history: (q: PageQuery) => postRoute<P['history']>('/api/propHistory', q)
}
