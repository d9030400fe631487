import type { Rarity } from '~types/shop'
import { isLastOne } from '@/utils/kujiTier'

/**
 * What a whole case is guaranteed to hold (issue 51 item 5: the platforms ask the page to say it
 * plainly), from the series' composition as the server makes cases (server/src/domain/catalogue/
 * arrangement.ts composeCase): one box of every design but the hidden one; a case that carries the
 * hidden design (at the published chance, or the drop's exact count) has it in place of one regular
 * design. `size` is the boxes of a case.
 */
export interface CaseGuarantee { key: 'detail.guaranteeAll' | 'detail.guaranteeNoHidden' | 'detail.guaranteeHidden'; size: number }

export function caseGuarantee (designs: ReadonlyArray<{ rarity: Rarity }>, hiddenCasePpm: number): CaseGuarantee {
  const size = designs.filter(d => d.rarity !== 'hidden').length
  const hasHidden = designs.some(d => d.rarity === 'hidden')
  if (!hasHidden) return { key: 'detail.guaranteeAll', size }
  return { key: hiddenCasePpm > 0 ? 'detail.guaranteeHidden' : 'detail.guaranteeNoHidden', size }
}

/**
 * What a whole 一番赏 set is guaranteed to hold (types/kuji.ts: a set holds every tier design as many
 * times as its tickets, and the Last One after the last ticket): its tickets, so many of each tier, and
 * the Last One for the buyer of the final ticket. From the series' designs (their tier and tickets).
 */
export interface KujiGuarantee { key: 'kuji.guarantee'; tickets: number; tiers: Array<{ tier: string; n: number }> }

export function kujiGuarantee (designs: ReadonlyArray<{ tier?: string; tickets?: number }>): KujiGuarantee {
  const byTier = new Map<string, number>()
  for (const d of designs) {
    if (!d.tier || isLastOne(d.tier) || !d.tickets) continue
    byTier.set(d.tier, (byTier.get(d.tier) ?? 0) + d.tickets)
  }
  const tiers = [...byTier].sort(([a], [b]) => a.localeCompare(b)).map(([tier, n]) => ({ tier, n }))
  return { key: 'kuji.guarantee', tickets: tiers.reduce((a, x) => a + x.n, 0), tiers }
}
