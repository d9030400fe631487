/**
 * The business domains (issue 48 item 4): the operator's list (read, replace; audited), and the rule a
 * mini-program link (POST /get_mp_url) to the web view page follows. The list itself is public in
 * GET /system/setting/login (`webDomains`), where the app reads it.
 */
import { webDomainRoutes as r } from '../../../types/webDomains'
import { webPageAllowed } from '../../../types/webHosts'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { defineRoute } from '../http/route'
import { normalizeWebDomainEntry, saveWebDomains, webDomainsOf } from '../domain/webDomains'

/** A mini-program page path of the web view (pages/web_view/index, however written). */
const WEB_VIEW_PATH = /(^|\/)web_view(\/|$)/

/** '%E5%' and other broken escapes: null (the link is refused, not guessed at). */
function decoded (text: string): string | null {
  try { return decodeURIComponent(text) } catch { return null }
}

/**
 * The pages a link's query would have the web view open: every `url` value, as the page may read it
 * (the mini-program hands the page the value as written in the link, the H5 router decoded once; the
 * page decodes once more). Each reading must be an allowed page for the link to be made.
 */
function webViewTargets (query: string): Array<string | null> {
  const out: Array<string | null> = []
  for (const part of query.replace(/^\?/, '').split('&')) {
    const eq = part.indexOf('=')
    const key = decoded(eq < 0 ? part : part.slice(0, eq))
    if (key !== 'url') continue
    const once = decoded(eq < 0 ? '' : part.slice(eq + 1))
    out.push(once)
    if (once !== null && once.includes('%')) out.push(decoded(once))
  }
  return out
}

/**
 * POST /get_mp_url: a link to the web view page only for a page of the business domains (the server
 * cannot tell its own public address from a request, whose Host header is the caller's to choose; in the
 * mini-program the web view opens only WeChat's business domains anyway, which this list mirrors).
 * Otherwise 422, naming the query; nothing is asked of WeChat.
 */
export async function checkMpUrlTarget (ctx: AppContext, path: string | undefined, query: string | undefined): Promise<void> {
  if (!path || !WEB_VIEW_PATH.test(path)) return
  const targets = webViewTargets(query ?? '')
  if (!targets.length) return
  const domains = await webDomainsOf(ctx.db)
  for (const target of targets) {
    if (target === null || !webPageAllowed(target, domains)) throw fail.unprocessable('webDomains.notAllowed', {}, { field: 'query', reason: 'web_domain' })
  }
}

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
