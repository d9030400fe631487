/**
 * The series form checks what the server checks on a save: for each form below, the form finds no
 * problem exactly when the request it builds passes the contract's schema (types/editor.ts
 * EditorSeriesSaveRequest, as Ajv checks it on the server) and the server's rule that a recycle value
 * is never above the reference value. Its publish check and odds preview are the server's own
 * (server/src/domain/editor.ts publishProblems, types/odds.ts). Uploads: what is checked before a
 * file is sent, and how the server's answer is read.
 */
import { TextDecoder, TextEncoder } from 'node:util'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import type { TSchema } from 'typebox'
import { seriesOdds } from '../../types/odds'
import { localeStore } from '@/stores/locale'
import { emptyDesign, emptySeriesForm, lowValueIndexes, oddsPreview, parsePercent, seriesRequest, validateSeries, type SeriesForm } from '@/pagesA/editor/seriesForm'
import { checkPickedFile, uploadAnswer, UploadError } from '@/services/upload'
import { ApiError } from '@/services/errors'
import { parseYuan } from '@/utils/format'

Object.assign(globalThis, { TextEncoder, TextDecoder })
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EditorSeriesSaveRequest } = require('../../types/editor') as { EditorSeriesSaveRequest: TSchema }
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)
const schemaAccepts = ajv.compile(EditorSeriesSaveRequest as object)
const serverAccepts = (f: SeriesForm) => {
  // what cannot be read as a number cannot be sent as what was typed: the server never sees it
  if (parseYuan(f.price) === null || parsePercent(f.hiddenPercent) === null) return false
  if (f.designs.some(d => parseYuan(d.reference) === null || parseYuan(d.recycle) === null)) return false
  const body = seriesRequest(f)
  return schemaAccepts(body) && body.designs.every(d => d.recycleValueCents <= d.referenceValueCents)
}

const IMG = '/media/u/' + 'a'.repeat(64) + '.png'
const design = (over: Partial<ReturnType<typeof emptyDesign>> = {}) => ({ ...emptyDesign(), nameZh: '款', nameEn: 'One', image: IMG, reference: '45', recycle: '10', ...over })
const valid: SeriesForm = {
  ...emptySeriesForm(), titleZh: '星际旅人', titleEn: 'Star Travellers', descriptionZh: '描述', descriptionEn: 'About', price: '39', hiddenPercent: '10',
  designs: [design({ rarity: 'rare' }), design(), design(), design(), design({ rarity: 'hidden', reference: '300', recycle: '90' })]
}

beforeAll(() => { localeStore.setLocale('en') })

test('a save: the form and the server agree on every case', () => {
  const cases: Array<[string, Partial<SeriesForm>]> = [
    ['valid', {}],
    ['an empty draft', { ...emptySeriesForm(), price: '10' }],
    ['price 200', { price: '200' }],
    ['price 200.01', { price: '200.01' }],
    ['price 0', { price: '0' }],
    ['price with 3 decimals', { price: '1.005' }],
    ['price -5', { price: '-5' }],
    ['hidden 100', { hiddenPercent: '100' }],
    ['hidden 100.0001', { hiddenPercent: '100.0001' }],
    ['hidden 12.34567', { hiddenPercent: '12.34567' }],
    ['title of 60', { titleZh: '星'.repeat(60) }],
    ['title of 61', { titleZh: '星'.repeat(61) }],
    ['title with a line break', { titleEn: 'a\nb' }],
    ['description with line breaks', { descriptionEn: 'a\nb\r\nc' }],
    ['recycle above reference', { designs: [design({ recycle: '46' })] }],
    ['recycle equal to reference', { designs: [design({ recycle: '45' })] }],
    ['value 10000', { designs: [design({ reference: '10000', recycle: '1' })] }],
    ['value 10000.01', { designs: [design({ reference: '10000.01', recycle: '1' })] }],
    ['a design name of 41', { designs: [design({ nameEn: 'x'.repeat(41) })] }],
    ['theme tags', { tagsZh: ' 动物、治愈，科幻 ', tagsEn: 'Animals, Cosy, Sci-fi' }],
    ['8 theme tags', { tagsZh: Array.from({ length: 8 }, (_, i) => `标签${i}`).join('、'), tagsEn: Array.from({ length: 8 }, (_, i) => `Tag ${i}`).join(',') }],
    ['9 theme tags', { tagsZh: Array.from({ length: 9 }, (_, i) => `标签${i}`).join('、'), tagsEn: Array.from({ length: 9 }, (_, i) => `Tag ${i}`).join(',') }],
    ['a theme tag of 21', { tagsZh: '星'.repeat(21), tagsEn: 'Stars' }]
  ]
  for (const [name, over] of cases) {
    const f = { ...valid, ...over }
    const formOk = Object.keys(validateSeries(f)).length === 0
    expect([name, formOk]).toEqual([name, serverAccepts(f)])
  }
})

test('theme tags: as many English names as Chinese ones, in the same order', () => {
  expect(validateSeries({ ...valid, tagsZh: '动物、治愈', tagsEn: 'Animals' })).toEqual({ 'tags.en': 'Give as many English tags as Chinese ones' })
  expect(seriesRequest({ ...valid, tagsZh: '动物、治愈', tagsEn: 'Animals, Cosy' }).tags).toEqual([{ zh: '动物', en: 'Animals' }, { zh: '治愈', en: 'Cosy' }])
  expect(seriesRequest({ ...valid, tagsZh: ' ', tagsEn: '' }).tags).toEqual([])
})

test('publishing: both languages, enough designs, every image, the composition, and recycling below the price', () => {
  expect(validateSeries(valid, true)).toEqual({})
  expect(Object.keys(validateSeries({ ...valid, titleEn: ' ' }, true))).toEqual(['title.en'])
  expect(validateSeries({ ...valid, designs: valid.designs.map((d, i) => (i === 2 ? { ...d, image: null } : d)) }, true)).toEqual({ 'designs.2.image': 'Design 3 needs an image' })
  // two designs, and a hidden chance without the hidden design
  expect(Object.keys(validateSeries({ ...valid, designs: valid.designs.slice(0, 2) }, true))).toEqual(['designs', 'hiddenCasePpm'])
  expect(validateSeries({ ...valid, hiddenPercent: '0' }, true)).toEqual({ hiddenCasePpm: 'With a hidden design, the hidden chance must be above 0' })
  const greedy = { ...valid, designs: valid.designs.map(d => ({ ...d, reference: '100', recycle: '40' })) }
  expect(Object.keys(validateSeries(greedy, true))).toEqual(['designs'])
  // a draft may be saved with all of that missing
  expect(validateSeries({ ...valid, titleEn: '', designs: [] })).toEqual({})
})

test('the odds preview is the server\'s computation, design by design', () => {
  const p = oddsPreview(valid)
  const odds = seriesOdds(valid.designs.map((d, i) => ({ id: i + 1, rarity: d.rarity, referenceValueCents: 0 })), 100000)
  expect(p.perDesignPpm).toEqual(valid.designs.map((_d, i) => odds.perDesignPpm.get(i + 1)))
  expect(p.perRarityPpm).toEqual(odds.perRarityPpm)
  expect(p.caseSize).toBe(4)
  // 4 boxes: rare 25 %, hidden 10 %/4, regulars the rest; recycle on average
  expect(p.perDesignPpm[0]).toBe(250000)
  expect(p.perDesignPpm[4]).toBe(25000)
  expect(p.expectedRecycleCents).toBe(Math.round(0.25 * 1000 + 3 * (0.25 - 0.025 / 3) * 1000 + 0.025 * 9000))
  expect(oddsPreview({ ...valid, designs: [design({ rarity: 'hidden' })] }).problem?.key).toBe('seriesForm.needRegular')
  expect(parsePercent('2.5')).toBe(25000)
  expect(parsePercent('1e2')).toBeNull()
})

test('uploads: the picked file is checked before it is sent, and the answer is read in every shape', () => {
  expect(() => checkPickedFile(null)).toThrow('No file selected')
  expect(() => checkPickedFile({ size: 2 * 1024 * 1024 + 1, type: 'image/png' })).toThrow('The image must be at most 2 MB')
  expect(() => checkPickedFile({ size: 10, type: 'image/svg+xml' })).toThrow(UploadError)
  expect(() => checkPickedFile({ size: 10, type: 'image/png' })).not.toThrow()
  const ok = { url: IMG, contentType: 'image/png', bytes: 10, width: 1, height: 1 }
  expect(uploadAnswer(JSON.stringify({ code: 200, message: 'OK', data: ok }))).toEqual(ok)
  expect(uploadAnswer({ code: 200, message: 'OK', data: ok })).toEqual(ok)
  expect(() => uploadAnswer('<html>502</html>')).toThrow('Upload failed')
  let refused: unknown
  try { uploadAnswer({ code: 422, message: 'The image must be at most 2 MB', data: { field: 'file' } }) } catch (e) { refused = e }
  expect(refused).toBeInstanceOf(ApiError)
  expect((refused as ApiError).message).toBe('The image must be at most 2 MB')
})

test('the audit log shows a series change design by design, named in the user\'s language', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { auditDiff, fieldLabel } = require('@/pagesA/editor/auditDiff') as typeof import('@/pagesA/editor/auditDiff')
  const d = (id: number, en: string, image: string | null) => ({ id, name: { zh: '款', en }, rarity: 'regular', image, referenceValueCents: 4500, recycleValueCents: 1000 })
  const before = { title: { zh: '星', en: 'Stars' }, designs: [d(1, 'One', null), d(2, 'Two', IMG)] }
  const after = { title: { zh: '星', en: 'Stars' }, designs: [d(1, 'Uno', IMG), d(2, 'Two', IMG)] }
  const rows = auditDiff(before, after)
  expect(rows.map(r => [r.path, r.before, r.after])).toEqual([['designs.0.name.en', 'One', 'Uno'], ['designs.0.image', null, IMG]])
  expect(fieldLabel('designs.0.name.en')).toBe('Designs 1 · Name · English')
})

test('designs worth less than one box are the ones the server names (its lowValueDesigns: value below the price)', () => {
  const f: SeriesForm = { ...emptySeriesForm(), price: '39', designs: ['45', '12', '39', '25.5', 'x', ''].map(reference => ({ ...emptyDesign(), reference })) }
  // '' and 'x' are not values yet (the field's own check names them); 39 is the price, not below it
  expect(lowValueIndexes(f)).toEqual([1, 3])
  expect(lowValueIndexes({ ...f, price: '' })).toEqual([])
  expect(lowValueIndexes({ ...f, price: '10' })).toEqual([])
})
