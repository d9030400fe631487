import { formatCents, formatPpm, parseYuan, tr } from '@/utils/format'
import { ageOn, splitPayment } from '@/pagesA/purchase/money'
import { localeStore } from '@/stores/locale'
import { mediaUrl } from '@/utils/media'

it('money in cents reads as yuan', () => {
  expect(formatCents(0)).toBe('¥0.00')
  expect(formatCents(3900)).toBe('¥39.00')
  expect(formatCents(-7805)).toBe('-¥78.05')
  expect(formatCents(10000, { sign: true })).toBe('+¥100.00')
  expect(formatCents(500000)).toBe('¥5,000.00')
  expect(formatCents(123456789)).toBe('¥1,234,567.89')
  expect(formatCents(-100000000, { sign: true })).toBe('-¥1,000,000.00')
  expect(formatCents(99999)).toBe('¥999.99')
  expect(parseYuan('100')).toBe(10000)
  expect(parseYuan('12.5')).toBe(1250)
  expect(parseYuan('0.01')).toBe(1)
  // plain amounts out of any range are still amounts: the caller says "between 1 and 5,000"
  expect(parseYuan('0')).toBe(0)
  expect(parseYuan('99999999')).toBe(9999999900)
  expect(parseYuan(' 8.00 ')).toBe(800)
  for (const bad of ['', '1.234', '-5', '+5', 'abc', '1e3', '1,000', '5 0', '.5', '5.', '0x10', 'Infinity']) expect(parseYuan(bad)).toBeNull()
})

it('odds in ppm read as percent, never rounded to zero', () => {
  expect(formatPpm(250000)).toBe('25%')
  expect(formatPpm(82639)).toBe('8.26%')
  expect(formatPpm(6944)).toBe('0.694%')
  expect(formatPpm(3)).toBe('<0.001%')
  expect(formatPpm(0)).toBe('0%')
})

it('purchases spend credit first, then cash, and name the shortfall', () => {
  expect(splitPayment(7800, { creditCents: 1000, cashCents: 10000 })).toEqual({ creditCents: 1000, cashCents: 6800, shortfallCents: 0 })
  expect(splitPayment(7800, { creditCents: 0, cashCents: 5000 })).toEqual({ creditCents: 0, cashCents: 5000, shortfallCents: 2800 })
  expect(splitPayment(3900, { creditCents: 9999, cashCents: 0 })).toEqual({ creditCents: 3900, cashCents: 0, shortfallCents: 0 })
})

it('age in full years on a day', () => {
  const day = new Date(2026, 10, 22)
  expect(ageOn('2008-11-22', day)).toBe(18)
  expect(ageOn('2008-11-23', day)).toBe(17)
  expect(ageOn('2018-12-01', day)).toBe(7)
})

it('bilingual texts and media paths', () => {
  localeStore.setLocale('zh')
  expect(tr({ zh: '兔兔', en: 'Bunny' })).toBe('兔兔')
  localeStore.setLocale('en')
  expect(tr({ zh: '兔兔', en: 'Bunny' })).toBe('Bunny')
  delete process.env.TARO_APP_API_BASE
  expect(mediaUrl('/media/art/1f430.webp')).toBe('/media/art/1f430.webp')
  process.env.TARO_APP_API_BASE = 'https://shop.example.com/dev-api'
  expect(mediaUrl('/media/art/1f430.webp')).toBe('https://shop.example.com/media/art/1f430.webp')
  expect(mediaUrl('https://cdn.example.com/a.webp')).toBe('https://cdn.example.com/a.webp')
  delete process.env.TARO_APP_API_BASE
})

it('media shown at a width ask the server for a copy as wide as the screen needs (one of its widths)', () => {
  const screen = (width: number, ratio: number) => {
    Object.defineProperty(window, 'innerWidth', { value: width, configurable: true })
    Object.defineProperty(window, 'devicePixelRatio', { value: ratio, configurable: true })
  }
  // a series card's picture, 160 design pixels: 80 CSS pixels on a 375 px phone
  screen(375, 2)
  expect(mediaUrl('/media/art/1f430.webp', 160)).toBe('/media/art/1f430.webp?w=160')
  screen(375, 3)
  expect(mediaUrl('/media/art/1f430.webp', 160)).toBe('/media/art/1f430.webp?w=240')
  // Lighthouse's phone: 412 px at 1.75 needs 154, served 160
  screen(412, 1.75)
  expect(mediaUrl(`/media/u/${'a'.repeat(64)}.jpg`, 160)).toBe(`/media/u/${'a'.repeat(64)}.jpg?w=160`)
  // a hero on a big tablet asks for no more than the largest width
  screen(1366, 2)
  expect(mediaUrl('/media/art/1f430.webp', 750)).toBe('/media/art/1f430.webp?w=1280')
  // no width, a sound, a GIF (it may move) or another host's picture: as given
  expect(mediaUrl('/media/art/1f430.webp')).toBe('/media/art/1f430.webp')
  expect(mediaUrl(`/media/u/${'b'.repeat(64)}.wav`, 160)).toBe(`/media/u/${'b'.repeat(64)}.wav`)
  expect(mediaUrl(`/media/u/${'c'.repeat(64)}.gif`, 160)).toBe(`/media/u/${'c'.repeat(64)}.gif`)
  expect(mediaUrl('https://cdn.example.com/a.webp', 160)).toBe('https://cdn.example.com/a.webp')
  screen(1024, 1)
})

it('reach-bottom handlers are throttled to one call per 350 ms', async () => {
  const { throttle, REACH_BOTTOM_THROTTLE_MS } = await import('@/utils/throttle')
  let now = 1000
  const calls: number[] = []
  const f = throttle((n: number) => calls.push(n), REACH_BOTTOM_THROTTLE_MS, () => now)
  f(1); now += 100; f(2); now += 249; f(3); now += 1; f(4)
  expect(calls).toEqual([1, 4])
  expect(REACH_BOTTOM_THROTTLE_MS).toBe(350)
})
