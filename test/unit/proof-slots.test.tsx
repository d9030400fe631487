/**
 * The prize's proof (issue 48): the revealed arrangement shows each slot's design id, which the
 * commitment hashes, and the design's name beside it, in the shopper's language.
 */
import { render, act, cleanup } from '@testing-library/react'
import { localeStore } from '@/stores/locale'
import { shopApi } from '@/services/shop'
import ProofSlots from '@/pagesA/prize_detail/ProofSlots'

const flush = () => act(async () => { for (let i = 0; i < 6; i++) await Promise.resolve() })
const design = (id: number, zh: string, en: string) => ({ id, name: { zh, en } })

afterEach(() => { cleanup(); jest.restoreAllMocks() })

it('ids with names beside them; the own slot marked; ids alone when the series cannot be read', async () => {
  localeStore.setLocale('zh')
  jest.spyOn(shopApi, 'seriesDetail').mockResolvedValue({ designs: [design(5, '小熊', 'Bear'), design(13, '隐藏款', 'Secret')] } as never)
  const { container } = render(<ProofSlots seriesId={3} arrangement={[5, 13, 5]} mine={2} />)
  await flush()
  const slots = [...container.querySelectorAll('.proof__slot')].map(s => s.textContent)
  expect(slots).toEqual(['1:5小熊', '2:13隐藏款', '3:5小熊'])
  expect(container.querySelector('.proof__slot--mine')!.textContent).toBe('2:13隐藏款')
  cleanup()
  localeStore.setLocale('en')
  const en = render(<ProofSlots seriesId={3} arrangement={[5, 13, 5]} mine={2} />)
  await flush()
  expect([...en.container.querySelectorAll('.proof__slot-name')].map(s => s.textContent)).toEqual(['Bear', 'Secret', 'Bear'])
  cleanup()

  jest.spyOn(shopApi, 'seriesDetail').mockRejectedValue(new Error('offline'))
  const alone = render(<ProofSlots seriesId={3} arrangement={[5, 13]} mine={1} />)
  await flush()
  expect([...alone.container.querySelectorAll('.proof__slot')].map(s => s.textContent)).toEqual(['1:5', '2:13'])
})
