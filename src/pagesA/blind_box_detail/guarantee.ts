import type { Rarity } from '~types/shop'

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
