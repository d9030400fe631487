/**
 * The shop's business domains (issue 48 item 4): the sites the web view may show and a mini-program link
 * may lead to (types/webHosts.ts has the rules of a match). Kept in shop_settings under one key of its
 * own (a JSON array of hosts, stored normalised), read through a short cache per process like the other
 * settings, written by operators only, each change in the audit log.
 */
import { domainToASCII } from 'node:url'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { iso, type Clock } from '../core/clock'
import { writeAudit } from './audit'
import { webDomainOf } from '../../../types/webHosts'

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
