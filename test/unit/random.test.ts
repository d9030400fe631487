import { randomNumber, randomString } from '@/utils/random'
import { exportFileName } from '@/services/data'

it('random strings: letters and digits, default length 30', () => {
  const s = randomString()
  expect(s).toMatch(/^[A-Za-z0-9]{30}$/)
  expect(randomString(8)).toHaveLength(8)
  expect(new Set(Array.from({ length: 50 }, () => randomString())).size).toBe(50)
})

it('random numbers: integers within min..max, default 0..100', () => {
  const seen = new Set<number>()
  for (let i = 0; i < 5000; i++) {
    const n = randomNumber()
    expect(Number.isInteger(n)).toBe(true)
    expect(n).toBeGreaterThanOrEqual(0)
    expect(n).toBeLessThanOrEqual(100)
    seen.add(n)
  }
  expect(seen.size).toBe(101)
  expect(randomNumber(5, 5)).toBe(5)
  expect(randomNumber(10, 1)).toBeGreaterThanOrEqual(1)
})

it('an export is saved as the table name plus a random id', () => {
  expect(exportFileName('prizes')).toMatch(/^prizes_[A-Za-z0-9]{8}\.xlsx$/)
})
