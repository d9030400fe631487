/**
 * The shop's business domains (issue 48 item 4): the sites the web view may show and a mini-program link
 * may lead to (types/webHosts.ts has the rules of a match). Kept in shop_settings under one key of its
 * own (a JSON array of hosts, stored normalised), read through a short cache per process like the other
 * settings, written by operators only, each change in the audit log.
 */
import { domainToASCII } from 'node:url'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { writeAudit } from './audit'
import { webDomainOf, webPageAllowed } from '../../../../types/webHosts'
import { fail } from '../../core/errors'

type Db = Kysely<Database>

export const WEB_DOMAINS_KEY = 'webDomains'
const CACHE_MS = 5_000
const cache = new WeakMap<Db, { at: number; value: string[] }>()

/**
 * An entry as typed -> the host as stored (lowercased, an international name in its ASCII form, no
 * default port), or null when it is not a plain host (a path, user, wildcard, http://, ...).
 */
export function normalizeWebDomainEntry (entry: string): string | null {
  const text = entry.trim().replace(/^https:\/\//i, '').replace(/\/$/, '')
  // a Unicode name (商店.中国, or full-width letters) -> its ASCII form, as a browser would resolve it
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(text)) {
    const m = /^([^:/?#@\\\s]+)(:\d{1,5})?$/.exec(text)
    const ascii = m ? domainToASCII(m[1]) : ''
    return ascii ? webDomainOf(ascii + (m?.[2] ?? '')) : null
  }
  return webDomainOf(text)
}

/** The listed hosts (none until an operator lists some; a malformed stored value counts as none). */
export async function webDomainsOf (db: Db, now = Date.now()): Promise<string[]> {
  const hit = cache.get(db)
  if (hit && now - hit.at < CACHE_MS) return hit.value
  const row = await db.selectFrom('shop_settings').select('value').where('key', '=', WEB_DOMAINS_KEY).executeTakeFirst()
  let value: string[] = []
  try {
    const parsed: unknown = row ? JSON.parse(row.value) : []
    if (Array.isArray(parsed)) value = parsed.filter((d): d is string => typeof d === 'string' && webDomainOf(d) === d)
  } catch { /* none */ }
  cache.set(db, { at: now, value })
  return value
}

/** Replaces the list with hosts already normalised (routes/webDomains.ts refuses the others); one audit row when it changed. */
export async function saveWebDomains (db: Db, clock: Clock, actorId: number, domains: string[]): Promise<string[]> {
  const next = [...new Set(domains)]
  const now = iso(clock())
  await db.transaction().execute(async trx => {
    cache.delete(trx)
    const before = await webDomainsOf(trx)
    const value = JSON.stringify(next)
    await trx.insertInto('shop_settings').values({ key: WEB_DOMAINS_KEY, value, updated_by: actorId, updated_at: now })
      .onConflict(oc => oc.column('key').doUpdateSet({ value, updated_by: actorId, updated_at: now })).execute()
    if (JSON.stringify(before) !== value) {
      await writeAudit(trx, clock, { actorId, action: 'settings.update', entity: 'setting', entityId: null, detail: { before: { webDomains: before }, after: { webDomains: next } } })
    }
  })
  cache.delete(db)
  return webDomainsOf(db)
}

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
export async function checkMpUrlTarget (db: Db, path: string | undefined, query: string | undefined): Promise<void> {
  if (!path || !WEB_VIEW_PATH.test(path)) return
  const targets = webViewTargets(query ?? '')
  if (!targets.length) return
  const domains = await webDomainsOf(db)
  for (const target of targets) {
    if (target === null || !webPageAllowed(target, domains)) throw fail.unprocessable('webDomains.notAllowed', {}, { field: 'query', reason: 'web_domain' })
  }
}
