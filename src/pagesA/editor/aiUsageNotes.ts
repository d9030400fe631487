/**
 * What the settings form says beside the two AI budgets: what counts, and today's use against the
 * budget (POST /api/operator/aiUsage), so an operator sees how near the shop is before changing it.
 */
import type { AiUsage } from '~types/ai'
import { t } from '@/stores/locale'
import type { Key } from './settingsRules'

export function aiUsageNotes (usage: AiUsage | null | undefined): Partial<Record<Key, string>> {
  const note = t('opSettings.aiBudgetNote')
  if (!usage) return { aiDailyPerShop: note }
  return {
    aiDailyPerAccount: t('opSettings.aiUsedAccounts', { most: usage.accountMostUsed, full: usage.accountsAtBudget }),
    aiDailyPerShop: `${t('opSettings.aiUsedShop', { used: usage.shopUsed, budget: usage.perShop })}. ${note}`
  }
}
