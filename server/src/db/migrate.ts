import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import type { Dialect } from './dialect'
import { accounts } from './migrations/0001_accounts'
import { catalogue } from './migrations/0002_catalogue'
import { shop } from './migrations/0003_shop'
import { userNameKeys } from './migrations/0004_user_name_key'
import { addressRules } from './migrations/0005_address_rules'
import { afterDraw } from './migrations/0006_after_draw'
import { withdrawals } from './migrations/0007_withdrawals'
import { combine } from './migrations/0008_combine'
import { props } from './migrations/0009_props'
import { accountSecurity } from './migrations/0010_account_security'
import { operators } from './migrations/0013_operators'
import { complaints } from './migrations/0014_complaints'
import { media } from './migrations/0015_media'
import { caseLeases } from './migrations/0016_case_leases'
import { complaintClosing } from './migrations/0017_complaint_closing'
import { helperTasks } from './migrations/0019_helper_tasks'
import { guardianConsent } from './migrations/0021_guardian_consent'
import { pickupPoints } from './migrations/0022_pickup_points'
import { designAlt } from './migrations/0023_design_alt'
import { launchEvents } from './migrations/0024_launch_events'
import { errorReportRequestId } from './migrations/0025_error_report_request_id'
import { purchaseFunction } from './migrations/0026_purchase_function'
import { seriesSearch } from './migrations/0027_series_search'
import { playerShow } from './migrations/0028_player_show'
import { mediaErasures } from './migrations/0029_media_erasures'
import { showRecentLikes } from './migrations/0030_show_recent_likes'
import { tagKeyLength } from './migrations/0031_tag_key_length'
import { purchaseOneSlotPlan } from './migrations/0032_purchase_one_slot_plan'
import { purchaseSessionCheck } from './migrations/0033_purchase_session_check'
import { showReportWeight } from './migrations/0034_show_report_weight'
import { searchKeysIgnorables } from './migrations/0035_search_keys_ignorables'
import { aiUsage } from './migrations/0036_ai_usage'
import { addressRegionParts } from './migrations/0037_address_region_parts'
import { stock } from './migrations/0038_stock'
import { drops } from './migrations/0039_drops'
import { dropQueue } from './migrations/0040_drop_queue'
import { dropLimits } from './migrations/0041_drop_limits'
import { restockReminders } from './migrations/0042_restock_reminders'
import { dropCasesCovering } from './migrations/0043_drop_cases_covering'
import { dropSelloutNoSeriesTurn } from './migrations/0044_drop_sellout_no_series_turn'
import { dropQueueLineIndex } from './migrations/0045_drop_queue_line_index'
import { kuji } from './migrations/0046_kuji'
import { raffle } from './migrations/0047_raffle'
import { purchaseKujiSteps } from './migrations/0048_purchase_kuji_steps'

/** Every migration, in order; the names are stored in kysely_migration and must never change. */
export function migrations (dialect: Dialect): Record<string, Migration> {
  return {
    '0001_accounts': accounts(dialect),
    '0002_catalogue': catalogue(dialect),
    '0003_shop': shop(dialect),
    '0004_user_name_key': userNameKeys(),
    '0005_address_rules': addressRules(),
    '0006_after_draw': afterDraw(dialect),
    '0007_withdrawals': withdrawals(dialect),
    '0008_combine': combine(dialect),
    '0009_props': props(dialect),
    '0010_account_security': accountSecurity(dialect),
    '0013_operators': operators(),
    '0014_complaints': complaints(dialect),
    '0015_media': media(dialect),
    '0016_case_leases': caseLeases(dialect),
    '0017_complaint_closing': complaintClosing(dialect),
    '0019_helper_tasks': helperTasks(dialect),
    '0021_guardian_consent': guardianConsent(dialect),
    '0022_pickup_points': pickupPoints(dialect),
    '0023_design_alt': designAlt(dialect),
    '0024_launch_events': launchEvents(dialect),
    '0025_error_report_request_id': errorReportRequestId(),
    '0026_purchase_function': purchaseFunction(dialect),
    '0027_series_search': seriesSearch(dialect),
    '0028_player_show': playerShow(dialect),
    '0029_media_erasures': mediaErasures(dialect),
    '0030_show_recent_likes': showRecentLikes(),
    '0031_tag_key_length': tagKeyLength(dialect),
    '0032_purchase_one_slot_plan': purchaseOneSlotPlan(dialect),
    '0033_purchase_session_check': purchaseSessionCheck(dialect),
    '0034_show_report_weight': showReportWeight(dialect),
    '0035_search_keys_ignorables': searchKeysIgnorables(),
    '0036_ai_usage': aiUsage(),
    '0037_address_region_parts': addressRegionParts(dialect),
    '0038_stock': stock(dialect),
    '0039_drops': drops(dialect),
    '0040_drop_queue': dropQueue(dialect),
    '0041_drop_limits': dropLimits(),
    '0042_restock_reminders': restockReminders(dialect),
    '0043_drop_cases_covering': dropCasesCovering(),
    '0044_drop_sellout_no_series_turn': dropSelloutNoSeriesTurn(dialect),
    '0045_drop_queue_line_index': dropQueueLineIndex(),
    '0046_kuji': kuji(dialect),
    '0047_raffle': raffle(dialect),
    '0048_purchase_kuji_steps': purchaseKujiSteps(dialect)
  }
}

class InCodeProvider implements MigrationProvider {
  constructor (private readonly dialect: Dialect) {}
  async getMigrations () { return migrations(this.dialect) }
}

/** Brings the schema to the latest version; throws with the failing migration's error. */
// Kysely<any>: migrations run against whatever schema the database has, not today's type
export async function migrateToLatest (db: Kysely<any>, dialect: Dialect): Promise<string[]> { // eslint-disable-line @typescript-eslint/no-explicit-any
  // unordered: a migration numbered below one already applied (branches merged in another order) still runs
  const migrator = new Migrator({ db, provider: new InCodeProvider(dialect), allowUnorderedMigrations: true })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find(r => r.status === 'Error')
  if (error) {
    const cause = error instanceof Error ? error : new Error(String(error))
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause })
  }
  return (results ?? []).filter(r => r.status === 'Success').map(r => r.migrationName)
}
