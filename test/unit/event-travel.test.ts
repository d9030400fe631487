/**
 * The launch event page's travel rules (src/utils/travel.ts): which day is asked, and what the
 * page says instead when a query cannot be asked (same city, no airport, a day past, tickets not on
 * sale yet: 12306 sells 15 days ahead), so the page never sends a query the server would refuse.
 */
import { CITIES, cityOf } from '~types/cities'
import { TRAVEL_LIMITS } from '~types/limits'
import { addDays, chinaClock, chinaDay, flightPlan, trainPlan } from '@/utils/travel'

const beijing = cityOf('北京')!
const shanghai = cityOf('上海')!
const suzhou = cityOf('苏州')!
// 2026-11-25 23:30 in China is 15:30 UTC
const NOW = Date.parse('2026-11-25T15:30:00Z')

test('days are counted in China time', () => {
  expect(chinaDay(NOW)).toBe('2026-11-25')
  expect(chinaDay(NOW + 31 * 60_000)).toBe('2026-11-26')
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
  expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
  expect(chinaClock('2026-12-12T06:00:00.000Z')).toBe('2026-12-12 14:00')
})

test('trains: asked within the sale window, else when they go on sale, the past, or the same city', () => {
  expect(trainPlan(beijing, shanghai, '2026-11-25', NOW)).toEqual({ kind: 'ask', date: '2026-11-25' })
  const last = addDays('2026-11-25', TRAVEL_LIMITS.trainDaysAhead)
  expect(trainPlan(beijing, shanghai, last, NOW)).toEqual({ kind: 'ask', date: last })
  expect(trainPlan(beijing, shanghai, '2026-12-20', NOW)).toEqual({ kind: 'notYet', opens: '2026-12-05' })
  expect(trainPlan(beijing, shanghai, '2026-11-24', NOW)).toEqual({ kind: 'past' })
  expect(trainPlan(shanghai, shanghai, '2026-11-26', NOW)).toEqual({ kind: 'sameCity' })
})

test('flights: by the cities\' IATA codes; a city without an airport says so in the shopper\'s language', () => {
  expect(flightPlan(beijing, shanghai, '2026-12-20', NOW, 'en')).toEqual({ kind: 'ask', date: '2026-12-20' })
  expect(flightPlan(suzhou, shanghai, '2026-12-20', NOW, 'en')).toEqual({ kind: 'noAirport', city: 'Suzhou' })
  expect(flightPlan(beijing, suzhou, '2026-12-20', NOW, 'zh')).toEqual({ kind: 'noAirport', city: '苏州' })
  expect(flightPlan(beijing, shanghai, '2028-01-01', NOW, 'en').kind).toBe('notYet')
})

test('every city can be asked: a station name the query takes and a three-letter code or none', () => {
  const station = new RegExp(TRAVEL_LIMITS.stationPattern)
  const airport = new RegExp(TRAVEL_LIMITS.airportPattern)
  for (const c of CITIES) {
    expect(station.test(c.station)).toBe(true)
    expect(c.airport === null || airport.test(c.airport)).toBe(true)
    expect(c.en).toMatch(/^[A-Z][A-Za-z' ]+$/)
  }
  expect(new Set(CITIES.map(c => c.zh)).size).toBe(CITIES.length)
})
