/** The business domains (types/webDomains.ts): the operator's list of sites the web view may show. */
import type { WebDomainsUpdate, webDomainRoutes } from '~types/webDomains'
import { postRoute } from './request'

type W = typeof webDomainRoutes

export const webDomainsApi = {
  list: () => postRoute<W['webDomains']>('/api/operator/webDomains', {}),
  save: (body: WebDomainsUpdate) => postRoute<W['saveWebDomains']>('/api/operator/webDomainsSave', body)
}
