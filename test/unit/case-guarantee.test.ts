/** The series page's guarantee for a whole case follows the composition as the server makes cases. */
import { caseGuarantee } from '@/pagesA/blind_box_detail/guarantee'
import { t, localeStore } from '@/stores/locale'

const designs = (...rarities: Array<'regular' | 'rare' | 'hidden'>) => rarities.map(rarity => ({ rarity }))

test('one box of every design but the hidden one; the hidden one, when a case may hold it, in place of a regular one', () => {
  expect(caseGuarantee(designs('regular', 'regular', 'rare'), 0)).toEqual({ key: 'detail.guaranteeAll', size: 3 })
  expect(caseGuarantee(designs('regular', 'regular', 'rare', 'hidden'), 50_000)).toEqual({ key: 'detail.guaranteeHidden', size: 3 })
  // a hidden design with no chance is never in a case
  expect(caseGuarantee(designs('regular', 'regular', 'hidden'), 0)).toEqual({ key: 'detail.guaranteeNoHidden', size: 2 })
})

test('said in both languages', () => {
  localeStore.setLocale('zh')
  expect(t('detail.guaranteeHidden', { size: 4 })).toBe('整箱保证：一箱 4 盒，除隐藏款外每个款式各一盒；含隐藏款的箱子里，隐藏款替换其中一个普通款。')
  localeStore.setLocale('en')
  expect(t('detail.guaranteeAll', { size: 12 })).toBe('A whole case, guaranteed: 12 boxes, one of each design.')
  localeStore.setLocale('zh')
})
