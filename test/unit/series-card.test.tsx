/**
 * A series card on home: a retired series (still listed, after those on sale, so its revealed cases can
 * be checked) says it is no longer on sale, in both languages; a series on sale says nothing of the kind.
 */
import { render, cleanup } from '@testing-library/react'
import SeriesCard from '@/components/SeriesCard'
import { localeStore } from '@/stores/locale'
import type { SeriesSummary } from '~types/shop'

afterEach(() => { cleanup() })

const series = (status: SeriesSummary['status']): SeriesSummary => ({
  id: 7, title: { zh: '萌宠乐园', en: 'Pet Party' }, description: { zh: '九只小动物', en: 'Nine pets' }, cover: '/media/art/1f381.webp',
  priceCents: 3900, caseSize: 12, designCount: 12, oddsPpm: { regular: 750000, rare: 250000, hidden: 0 }, status
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
