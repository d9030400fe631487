/**
 * A series card on home: a retired series (still listed, after those on sale, so its revealed cases can
 * be checked) says it is no longer on sale, in both languages; a series on sale says nothing of the kind;
 * one whose warehouse is sold out says 已售罄 / Sold out.
 */
import { render, cleanup } from '@testing-library/react'
import SeriesCard from '@/components/SeriesCard'
import { localeStore } from '@/stores/locale'
import type { SeriesSummary } from '~types/shop'

afterEach(() => { cleanup() })

const series = (status: SeriesSummary['status'], soldOut = false): SeriesSummary => ({
  id: 7, title: { zh: '萌宠乐园', en: 'Pet Party' }, description: { zh: '九只小动物', en: 'Nine pets' }, cover: '/media/art/1f381.webp',
  priceCents: 3900, caseSize: 12, kind: 'case', designCount: 12, oddsPpm: { regular: 750000, rare: 250000, hidden: 0 }, status, soldOut
})

test.each([['zh', '已停售'], ['en', 'No longer on sale']] as const)('a retired series is marked off sale (%s)', (locale, words) => {
  localeStore.setLocale(locale)
  const retired = render(<SeriesCard series={series('retired')} onClick={() => undefined} />)
  expect(retired.container.querySelector('.series-card--off')).not.toBeNull()
  expect(retired.container.textContent).toContain(words)
  cleanup()
  const onSale = render(<SeriesCard series={series('on_sale')} onClick={() => undefined} />)
  expect(onSale.container.querySelector('.series-card--off')).toBeNull()
  expect(onSale.container.textContent).not.toContain(words)
})

test.each([['zh', '已售罄'], ['en', 'Sold out']] as const)('a sold-out series on sale says so, and is not called off sale (%s)', (locale, words) => {
  localeStore.setLocale(locale)
  const soldOut = render(<SeriesCard series={series('on_sale', true)} onClick={() => undefined} />)
  expect(soldOut.container.querySelector('.series-card--off')).not.toBeNull()
  expect(soldOut.container.querySelector('.series-card__sold-out')?.textContent).toContain(words)
  expect(soldOut.container.textContent).not.toContain(locale === 'zh' ? '已停售' : 'No longer on sale')
  cleanup()
  const selling = render(<SeriesCard series={series('on_sale')} onClick={() => undefined} />)
  expect(selling.container.querySelector('.series-card__sold-out')).toBeNull()
})
