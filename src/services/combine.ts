/** Combine and its seeds (types/combine.ts). */
import type { CombineRequest, RecipeSaveRequest, combineRoutes, operatorCombineRoutes } from '~types/combine'
import { postRoute } from './request'

type C = typeof combineRoutes

export const combineApi = {
  seed: () => postRoute<C['seed']>('/api/fairSeed', {}),
  setClientSeed: (clientSeed: string) => postRoute<C['clientSeed']>('/api/fairClientSeed', { clientSeed }),
  rotate: () => postRoute<C['rotate']>('/api/fairRotate', {}),
  recipes: (seriesId?: number) => postRoute<C['recipes']>('/api/combineRecipes', seriesId === undefined ? {} : { seriesId }),
  combine: (body: CombineRequest) => postRoute<C['combine']>('/api/combine', body),
  detail: (combineId: number) => postRoute<C['detail']>('/api/combineDetail', { combineId })
}

type OC = typeof operatorCombineRoutes

/** The operator's recipes. */
export const recipeAdminApi = {
  list: () => postRoute<OC['recipes']>('/api/operator/recipes', {}),
  save: (body: RecipeSaveRequest) => postRoute<OC['save']>('/api/operator/recipeSave', body)
}
