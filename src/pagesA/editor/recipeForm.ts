/**
 * The editor's combine recipe form: what the operator types (texts, as typed), checked as the server
 * checks a recipe (types/combine.ts RecipeSaveRequest and domain/combine.ts saveRecipe: names 1-100
 * characters and not blank, a rarity for a recipe by rarity, 2-20 inputs, 1-100 designs of the series
 * in the pool, each once, whole weights from 1 to 1,000,000), and the odds the pool will publish,
 * computed by the server's own function (types/fair.ts poolOddsPpm).
 */
import { RECIPE_LIMITS, SINGLE_LINE_PATTERN } from '~types/limits'
import { poolOddsPpm } from '~types/fair'
import type { OperatorRecipe, RecipeSaveRequest } from '~types/combine'
import type { DesignInfo, Rarity } from '~types/shop'
import type { MessageKey } from '@/locales/types'
import { t } from '@/stores/locale'

export interface RecipeForm {
  id?: number
  seriesId: number | null
  nameZh: string
  nameEn: string
  inputKind: 'rarity' | 'same_design'
  inputRarity: Rarity | null
  count: string
  pool: Array<{ designId: number; weight: string }>
  status: 'on' | 'off'
}

export type RecipeField = 'seriesId' | 'nameZh' | 'nameEn' | 'inputRarity' | 'count' | 'pool' | `weight${number}`
export type RecipeErrors = Partial<Record<RecipeField, string>>

export const emptyRecipeForm = (seriesId: number | null = null): RecipeForm => ({
  seriesId, nameZh: '', nameEn: '', inputKind: 'rarity', inputRarity: 'regular', count: '3', pool: [], status: 'on'
})

export const formOfRecipe = (r: OperatorRecipe): RecipeForm => ({
  id: r.id,
  seriesId: r.seriesId,
  nameZh: r.name.zh,
  nameEn: r.name.en,
  inputKind: r.input.kind,
  inputRarity: r.input.rarity,
  count: String(r.input.count),
  pool: r.pool.map(p => ({ designId: p.design.id, weight: String(p.weight) })),
  status: r.status
})

/** A whole number typed as digits only (no sign, exponent, separator or decimals), else null. */
const wholeNumber = (text: string): number | null => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : null)

const RARITY_RANK: Record<Rarity, number> = { regular: 0, rare: 1, hidden: 2 }

/** What is wrong with the form, field by field, in the user's language (empty: it can be saved). */
export function validateRecipe (f: RecipeForm, designs: readonly Pick<DesignInfo, 'id'>[]): RecipeErrors {
  const errors: RecipeErrors = {}
  const name = (field: 'nameZh' | 'nameEn', label: MessageKey) => {
    const v = f[field]
    if (!v) errors[field] = t('recipeForm.required', { field: t(label) })
    else if (!v.trim()) errors[field] = t('recipeForm.blank', { field: t(label) })
    else if ([...v].length > RECIPE_LIMITS.nameMax) errors[field] = t('recipeForm.tooLong', { field: t(label), max: RECIPE_LIMITS.nameMax })
    else if (!new RegExp(SINGLE_LINE_PATTERN).test(v)) errors[field] = t('recipeForm.oneLine', { field: t(label) })
  }
  if (f.seriesId === null) errors.seriesId = t('recipeForm.seriesRequired')
  name('nameZh', 'recipeForm.nameZh')
  name('nameEn', 'recipeForm.nameEn')
  if (f.inputKind === 'rarity' && !f.inputRarity) errors.inputRarity = t('recipeForm.rarityRequired')
  const count = wholeNumber(f.count)
  if (count === null || count < RECIPE_LIMITS.inputCountMin || count > RECIPE_LIMITS.inputCountMax) {
    errors.count = t('recipeForm.countRange', { min: RECIPE_LIMITS.inputCountMin, max: RECIPE_LIMITS.inputCountMax })
  }
  const known = new Set(designs.map(d => d.id))
  if (!f.pool.length || f.pool.some(p => !known.has(p.designId))) errors.pool = t('recipeForm.poolRequired')
  else if (f.pool.length > RECIPE_LIMITS.poolMax) errors.pool = t('recipeForm.poolTooLarge', { max: RECIPE_LIMITS.poolMax })
  f.pool.forEach((p, i) => {
    const w = wholeNumber(p.weight)
    if (w === null || w < 1 || w > RECIPE_LIMITS.weightMax) errors[`weight${i}`] = t('recipeForm.weightRange', { max: String(RECIPE_LIMITS.weightMax).replace(/\B(?=(\d{3})+(?!\d))/g, ',') })
  })
  return errors
}

/** The request of a valid form (validateRecipe found nothing). */
export function recipeRequest (f: RecipeForm): RecipeSaveRequest {
  return {
    ...(f.id === undefined ? {} : { id: f.id }),
    seriesId: f.seriesId!,
    name: { zh: f.nameZh.trim(), en: f.nameEn.trim() },
    inputKind: f.inputKind,
    inputRarity: f.inputKind === 'rarity' ? f.inputRarity : null,
    inputCount: wholeNumber(f.count)!,
    pool: f.pool.map(p => ({ designId: p.designId, weight: wholeNumber(p.weight)! })),
    status: f.status
  }
}

export interface PoolPreview { designId: number; oddsPpm: number | null }

/**
 * The odds each pool entry will have (null while its weight is not a valid number: it is left out of
 * the total), the total weight, and the guarantee (the least rare design the pool can give).
 */
export function poolPreview (f: RecipeForm, designs: readonly Pick<DesignInfo, 'id' | 'rarity'>[]): { entries: PoolPreview[]; total: number; guaranteed: Rarity | null } {
  const weights = f.pool.map(p => {
    const w = wholeNumber(p.weight)
    return w !== null && w >= 1 && w <= RECIPE_LIMITS.weightMax ? w : null
  })
  const valid = weights.filter((w): w is number => w !== null)
  const odds = poolOddsPpm(valid)
  let k = 0
  const entries = f.pool.map((p, i) => ({ designId: p.designId, oddsPpm: weights[i] === null ? null : odds[k++] }))
  const rarities = f.pool.map(p => designs.find(d => d.id === p.designId)?.rarity).filter((r): r is Rarity => !!r)
  const guaranteed = rarities.length ? rarities.reduce((min, r) => (RARITY_RANK[r] < RARITY_RANK[min] ? r : min)) : null
  return { entries, total: valid.reduce((s, w) => s + w, 0), guaranteed }
}
