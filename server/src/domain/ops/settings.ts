/**
 * The operator's shop settings (table shop_settings, one JSON value per key), with their defaults.
 * Read through settingsOf (a short cache per process: an operator's change shows within a few seconds
 * on every server); written by operators only (routes/operator*.ts), each change in the audit log.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { writeAudit } from './audit'
import { fail } from '../../core/errors'
import { formatYuan } from '../../core/money'
import { DEFAULT_SHOP_SETTINGS, settingsConflicts, type ShopSettings } from '../../../../types/limits'

type Db = Kysely<Database>

export type { ShopSettings }

const CACHE_MS = 5_000
const cache = new WeakMap<Db, { at: number; value: ShopSettings }>()

/** The current settings: the stored ones over the defaults (an unknown or malformed stored value is ignored). */
export async function settingsOf (db: Db, now = Date.now()): Promise<ShopSettings> {
  const hit = cache.get(db)
  if (hit && now - hit.at < CACHE_MS) return hit.value
  const rows = await db.selectFrom('shop_settings').select(['key', 'value']).execute()
  const value: ShopSettings = { ...DEFAULT_SHOP_SETTINGS }
  for (const r of rows) {
    if (!(r.key in DEFAULT_SHOP_SETTINGS)) continue
    try {
      const parsed: unknown = JSON.parse(r.value)
      const key = r.key as keyof ShopSettings
      if (typeof parsed === typeof DEFAULT_SHOP_SETTINGS[key]) (value as unknown as Record<string, unknown>)[key] = parsed
    } catch { /* keep the default */ }
  }
  cache.set(db, { at: now, value })
  return value
}

/** The stored settings over the defaults, read inside a transaction (no cache). */
async function currentSettings (db: Db): Promise<ShopSettings> {
  cache.delete(db)
  return settingsOf(db)
}

/**
 * Stores some settings (each checked by the caller's route schema; here, together with the stored
 * ones: settings that contradict each other are a 400 naming the changed one, and nothing is saved);
 * the cache of this process is dropped. One audit row per save, with the changed settings before and
 * after (nothing changed: no row).
 */
export async function saveSettings (db: Db, clock: Clock, actorId: number, changes: Partial<ShopSettings>): Promise<ShopSettings> {
  const now = iso(clock())
  await db.transaction().execute(async trx => {
    const current = await currentSettings(trx)
    const known = Object.keys(changes).filter(k => k in DEFAULT_SHOP_SETTINGS && changes[k as keyof ShopSettings] !== undefined) as Array<keyof ShopSettings>
    const conflict = settingsConflicts({ ...current, ...changes }, known)[0]
    if (conflict) {
      const key = conflict.field === 'withdrawMinCents' ? 'settings.withdrawMinAboveDailyMax' : 'settings.withdrawDailyMaxBelowMin'
      throw fail.field(conflict.field, key, { other: formatYuan(conflict.otherCents) })
    }
    const before: Record<string, unknown> = {}
    const after: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(changes)) {
      if (v === undefined || !(key in DEFAULT_SHOP_SETTINGS)) continue
      const value = JSON.stringify(v)
      await trx.insertInto('shop_settings').values({ key, value, updated_by: actorId, updated_at: now })
        .onConflict(oc => oc.column('key').doUpdateSet({ value, updated_by: actorId, updated_at: now })).execute()
      const old = current[key as keyof ShopSettings]
      if (old !== v) {
        before[key] = old
        after[key] = v
      }
    }
    if (Object.keys(after).length) await writeAudit(trx, clock, { actorId, action: 'settings.update', entity: 'setting', entityId: null, detail: { before, after } })
  })
  cache.delete(db)
  return settingsOf(db)
}
