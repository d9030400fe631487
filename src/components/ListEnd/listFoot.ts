/** Which foot a list has (components/ListEnd): the rule, apart from its look, in a module of its own
 *  (a .tsx module exports components only: test/unit/fast-refresh-boundaries.test.ts). */
export type ListFoot = 'none' | 'loading' | 'empty' | 'more' | 'end'

export interface ListFootInput {
  /** The rows shown so far (null/undefined: the first page has not come yet). */
  count: number | null | undefined
  /** More rows remain to be loaded. */
  hasMore: boolean
  /** A page is on its way. */
  loading?: boolean
  /** What a list with more to come says; nothing when absent. */
  more?: string
}

export function listFoot ({ count, hasMore, loading, more }: ListFootInput): ListFoot {
  if (loading) return 'loading'
  if (count === null || count === undefined) return 'none'
  if (count === 0) return 'empty'
  if (hasMore) return more ? 'more' : 'none'
  return 'end'
}
