/**
 * The shop's business domains (业务域名, issue 48 item 4): which sites the web view may show (besides the
 * shop's own origin), an operator setting as WeChat's business domains are. The rules of a match are in
 * types/webHosts.ts; the public list travels with the shop's public settings (GET /system/setting/login,
 * `webDomains`).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { Obj, Text, EmptyBody } from './schema'
import { WEB_DOMAIN_LIMITS } from './webHosts'

export const WebDomains = Type.Object({
  /** Hosts as stored: lowercased, ASCII (xn--), a port only when not 443, e.g. "shop.example.com". */
  domains: Type.Array(Type.String())
})
export type WebDomains = Static<typeof WebDomains>

export const WebDomainsUpdate = Obj({
  /** Each a host ("shop.example.com", "shop.example.com:8443"; "https://" and a Unicode name accepted). */
  domains: Type.Array(Text({ minLength: 1, maxLength: WEB_DOMAIN_LIMITS.entryMax }), { maxItems: WEB_DOMAIN_LIMITS.max })
})
export type WebDomainsUpdate = Static<typeof WebDomainsUpdate>

const op = 'operator'
export const webDomainRoutes = {
  webDomains: route({ method: 'POST', url: '/api/operator/webDomains', auth: 'operator', tag: op, body: EmptyBody, data: WebDomains, summary: 'The business domains the web view may show' }),
  saveWebDomains: route({
    method: 'POST', url: '/api/operator/webDomainsSave', auth: 'operator', tag: op, body: WebDomainsUpdate, data: WebDomains,
    summary: 'Replace the business domains (audited)',
    description: 'Each entry must be a plain host with an optional port (no path, no user, no wildcard, https only); duplicates are merged. The shop\'s own origin is always allowed and need not be listed.'
  })
}
