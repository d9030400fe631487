/**
 * The recipe form checks what the server checks: for each form below, the form finds no problem
 * exactly when the request it builds passes the contract's schema (types/combine.ts RecipeSaveRequest,
 * as Ajv checks it on the server) and the server's own rules (a name blank once trimmed, a rarity for a
 * recipe by rarity, each design once and of the series). The odds preview is the server's function.
 */
import { TextDecoder, TextEncoder } from 'node:util'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import type { TSchema } from 'typebox'
import { poolOddsPpm } from '../../types/fair'
import { localeStore } from '@/stores/locale'
import { emptyRecipeForm, poolPreview, recipeRequest, validateRecipe, type RecipeForm } from '@/pagesA/editor/recipeForm'
import { auditDiff, fieldLabel, formatAuditValue } from '@/pagesA/editor/auditDiff'

const DESIGNS = [{ id: 11, rarity: 'regular' as const }, { id: 12, rarity: 'rare' as const }, { id: 13, rarity: 'hidden' as const }]
const valid: RecipeForm = { ...emptyRecipeForm(3), nameZh: '升级', nameEn: 'Level up', count: '3', pool: [{ designId: 12, weight: '2' }, { designId: 13, weight: '1' }] }

// TypeBox needs TextEncoder, which jsdom does not have: given before the contract's module is loaded
Object.assign(globalThis, { TextEncoder, TextDecoder })
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { RecipeSaveRequest } = require('../../types/combine') as { RecipeSaveRequest: TSchema }
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)
const schemaAccepts = ajv.compile(RecipeSaveRequest as object)
/** What the server would say of the request a form builds: the schema, then saveRecipe's own rules. */
function serverAccepts (f: RecipeForm): boolean {
  const known = new Set(DESIGNS.map(d => d.id))
  let body: unknown
  try {
    body = { ...recipeRequest(f), inputCount: /^\d+$/.test(f.count.trim()) ? Number(f.count) : f.count, pool: f.pool.map(p => ({ designId: p.designId, weight: /^\d+$/.test(p.weight.trim()) ? Number(p.weight) : p.weight })), seriesId: f.seriesId }
  } catch {
    return false
  }
  const b = body as ReturnType<typeof recipeRequest>
  if (!schemaAccepts(b)) return false
  if (!b.name.zh.trim() || !b.name.en.trim()) return false
  if (b.inputKind === 'rarity' && !b.inputRarity) return false
  if (new Set(b.pool.map(p => p.designId)).size !== b.pool.length || b.pool.some(p => !known.has(p.designId))) return false
  return true
}

beforeEach(() => localeStore.setLocale('en'))

const CASES: Array<[string, Partial<RecipeForm>]> = [
  ['valid', {}],
  ['no zh name', { nameZh: '' }],
  ['a blank en name', { nameEn: '   ' }],
  ['a name of 100 characters', { nameZh: '字'.repeat(100) }],
  ['a name of 101 characters', { nameEn: 'x'.repeat(101) }],
  ['a line break in a name', { nameZh: '升\n级' }],
  ['a control character in a name', { nameEn: 'a\u0007b' }],
  ['no series', { seriesId: null }],
  ['rarity missing', { inputRarity: null }],
  ['same design, no rarity needed', { inputKind: 'same_design', inputRarity: null }],
  ['count 1', { count: '1' }],
  ['count 2', { count: '2' }],
  ['count 20', { count: '20' }],
  ['count 21', { count: '21' }],
  ['count 2.5', { count: '2.5' }],
  ['count -3', { count: '-3' }],
  ['count 1e1', { count: '1e1' }],
  ['empty pool', { pool: [] }],
  ['a design of another series', { pool: [{ designId: 99, weight: '1' }] }],
  ['weight 0', { pool: [{ designId: 12, weight: '0' }] }],
  ['weight 1,000,000', { pool: [{ designId: 12, weight: '1000000' }] }],
  ['weight 1,000,001', { pool: [{ designId: 12, weight: '1000001' }] }],
  ['weight empty', { pool: [{ designId: 12, weight: '' }] }],
  ['weight 1.5', { pool: [{ designId: 12, weight: '1.5' }] }]
]

test.each(CASES)('%s: the form and the server agree', (_name, change) => {
  const f = { ...valid, ...change }
  const problems = validateRecipe(f, DESIGNS)
  expect(Object.keys(problems).length === 0).toBe(serverAccepts(f))
})

test('the problems name the field, in the user\'s language', () => {
  expect(validateRecipe({ ...valid, nameZh: '', count: '30' }, DESIGNS)).toEqual({
    nameZh: 'Name (Chinese) is required', count: 'Prizes per combine must be a whole number from 2 to 20'
  })
  localeStore.setLocale('zh')
  expect(validateRecipe({ ...valid, nameEn: ' ', pool: [{ designId: 12, weight: '0' }] }, DESIGNS)).toEqual({
    nameEn: '名称（英文）不能只有空白', weight0: '权重应为 1 到 1,000,000 的整数'
  })
})

test('the odds preview is what the server will publish; the guarantee is the least rare design', () => {
  const weights = [7, 2, 1]
  const f = { ...valid, pool: [{ designId: 13, weight: '7' }, { designId: 12, weight: '2' }, { designId: 11, weight: '1' }] }
  expect(poolPreview(f, DESIGNS)).toEqual({ entries: [13, 12, 11].map((designId, i) => ({ designId, oddsPpm: poolOddsPpm(weights)[i] })), total: 10, guaranteed: 'regular' })
  expect(poolOddsPpm([1, 1, 1])).toEqual([333333, 333333, 333333])
})

describe('the audit diff', () => {
  test('only changed fields; created and removed things; nested names', () => {
    expect(auditDiff({ a: 1, b: { zh: 'x', en: 'y' } }, { a: 1, b: { zh: 'x', en: 'z' } })).toEqual([{ path: 'b.en', kind: 'changed', before: 'y', after: 'z' }])
    expect(auditDiff(null, { priceCents: 100 })).toEqual([{ path: 'priceCents', kind: 'added', before: undefined, after: 100 }])
    expect(auditDiff({ status: 'on' }, null)).toEqual([{ path: 'status', kind: 'removed', before: 'on', after: undefined }])
    expect(auditDiff('requested', 'approved')).toEqual([{ path: '', kind: 'changed', before: 'requested', after: 'approved' }])
    expect(auditDiff({ list: [1, 2] }, { list: [1, 2] })).toEqual([])
  })
  test('values as people read them', () => {
    expect(formatAuditValue('shipFeeCents', 123456)).toBe('¥1,234.56')
    expect(formatAuditValue('hiddenCasePpm', 83333)).toBe('8.33%')
    expect(formatAuditValue('role', 'operator')).toBe('Operator')
    expect(formatAuditValue('name', { zh: '升级', en: 'Level up' })).toBe('Level up')
    expect(formatAuditValue('x', null)).toBe('—')
    expect(formatAuditValue('x', 'something.unknown')).toBe('something.unknown')
    expect(fieldLabel('name.zh')).toBe('Name · Chinese')
    expect(fieldLabel('hintCardPriceCents')).toBe('Hint card price')
    // a key without a label reads as words, never as an identifier
    expect(fieldLabel('notAKnownField')).toBe('Not a known field')
    localeStore.setLocale('zh')
    expect(fieldLabel('design.rarity')).toBe('稀有度')
    expect(formatAuditValue('rarity', 'hidden')).toBe('隐藏')
  })
})
