/**
 * Train tickets and flights (types/travel.ts) {from, to, date}. The payload rules: stations and cities
 * are trimmed (inner spaces removed: 上海 虹桥 is 上海虹桥); airports and cities of a flight are three
 * letters, upper-cased; the date is YYYY-MM-DD (a Date becomes its day in China time, where the
 * server counts days).
 */
import type { FlightResult, TicketsResult, travelRoutes } from '~types/travel'
import { postRoute } from './request'

type R = typeof travelRoutes

const pad = (n: number) => String(n).padStart(2, '0')

/** A day as the server takes it: a Date in China time (UTC+8); a text with / or . separators too. */
export function travelDay (date: Date | string): string {
  if (date instanceof Date) {
    const china = new Date(date.getTime() + 8 * 3600_000)
    return `${china.getUTCFullYear()}-${pad(china.getUTCMonth() + 1)}-${pad(china.getUTCDate())}`
  }
  const m = /^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\s*$/.exec(date)
  return m ? `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}` : date.trim()
}

const station = (s: string) => s.replace(/\s+/g, '')
const airport = (s: string) => s.trim().toUpperCase()

export const travelApi = {
  tickets: (from: string, to: string, date: Date | string): Promise<TicketsResult> =>
    postRoute<R['tickets']>('/api/queryTickets', { from: station(from), to: station(to), date: travelDay(date) }),
  flights: (from: string, to: string, date: Date | string): Promise<FlightResult> =>
    postRoute<R['flights']>('/api/queryFlight', { from: airport(from), to: airport(to), date: travelDay(date) })
}
