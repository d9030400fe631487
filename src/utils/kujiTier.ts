/**
 * 一番赏 (kuji) tiers as shoppers read them (types/kuji.ts): a letter is "A赏 / Prize A", the Last One
 * "最终赏 / Last One"; never the wire's names. The series page, the purchase, the opening and the results
 * all name a tier so.
 */
import type { KujiBoard } from '~types/kuji'
import type { DesignInfo } from '~types/shop'
import { t } from '@/stores/locale'

/**
 * The Last One's tier, as the wire names it (types/kuji.ts KUJI_LAST_ONE: a schema module, which the app
 * may not import values from; test/unit/kuji-board.test.ts holds the two equal).
 */
export const LAST_ONE = 'last_one'
/** The Double Chance prize's tier (types/kuji.ts KUJI_DOUBLE_CHANCE): drawn among a sold-out set's tickets. */
export const DOUBLE_CHANCE = 'double_chance'

export const isLastOne = (tier: string | null | undefined): boolean => tier === LAST_ONE
/** A tier no ticket holds: the Last One, the Double Chance. */
export const isTicketTier = (tier: string | null | undefined): boolean => typeof tier === 'string' && /^[A-Z]$/.test(tier)

/** A kuji design (one with a tier), as the purchase's prizes and the series' designs carry it. */
export const isKujiDesign = (design: { tier?: string }): boolean => typeof design.tier === 'string' && design.tier.length > 0

/** "A赏" / "Prize A"; "最终赏" / "Last One"; "双重机会赏" / "Double Chance". */
export const tierName = (tier: string): string =>
  (isLastOne(tier) ? t('kuji.lastOne') : tier === DOUBLE_CHANCE ? t('kuji.doubleChance') : t('kuji.tier', { tier }))

/** The tier's colour: A, B, C and D their own, later letters one shared; the Last One gold, the Double Chance its own. */
export function tierTone (tier: string): 'last' | 'double' | 'a' | 'b' | 'c' | 'd' | 'e' {
  if (isLastOne(tier)) return 'last'
  if (tier === DOUBLE_CHANCE) return 'double'
  const i = tier.charCodeAt(0) - 65
  return (['a', 'b', 'c', 'd'] as const)[i] ?? 'e'
}

export interface TierSummary {
  tier: string
  designs: DesignInfo[]
  /** Tickets of the tier in a whole set, and unsold now. */
  tickets: number
  left: number
  /** The chance that the next ticket drawn holds the tier (left over tickets left), in ppm. */
  oddsPpm: number
}

/** The tiers A first, each with its chance for the next ticket drawn from this set. */
export function tierSummaries (board: Pick<KujiBoard, 'tiers' | 'ticketsLeft'>): TierSummary[] {
  return [...board.tiers]
    .filter(row => isTicketTier(row.tier))
    .sort((a, b) => a.tier.localeCompare(b.tier))
    .map(row => ({
      tier: row.tier,
      designs: row.designs,
      tickets: row.tickets,
      left: row.left,
      oddsPpm: board.ticketsLeft > 0 ? Math.round(row.left * 1_000_000 / board.ticketsLeft) : 0
    }))
}
