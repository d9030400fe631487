/**
 * The business domains (issue 48 item 4): the operator's list (read, replace; audited), and the rule a
 * mini-program link (POST /get_mp_url) to the web view page follows. The list itself is public in
 * GET /system/setting/login (`webDomains`), where the app reads it.
 */
import { webDomainRoutes as r } from '../../../types/webDomains'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { defineRoute } from '../http/route'
import { normalizeWebDomainEntry, saveWebDomains, webDomainsOf } from '../domain/ops/webDomains'

export function webDomainRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.webDomains, async () => ({ domains: await webDomainsOf(ctx.db) }))
  defineRoute(app, ctx, r.saveWebDomains, async ({ body, userId }) => {
    const hosts: string[] = []
    body.domains.forEach((entry, i) => {
      const host = normalizeWebDomainEntry(entry)
      if (!host) throw fail.field(`domains.${i}`, 'webDomains.invalid', { entry: entry.trim().slice(0, 60) })
      hosts.push(host)
    })
    return { domains: await saveWebDomains(ctx.db, ctx.clock, userId, hosts) }
  })
}
