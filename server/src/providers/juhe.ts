/**
 * Juhe (聚合数据, https://www.juhe.cn) travel APIs, each authorised by its own `key` in the query string
 * (no signature): the answer is {reason, result, error_code}, error_code 0 on success; anything else is
 * Juhe's refusal with its reason (10001 wrong key, 10012 out of requests, 2xxxxx the API's own).
 *
 *  - train ticket query (火车票查询)  GET {base}/fapigw/train/query?key&search_type=1&departure_station
 *    &arrival_station&date: result is a list of trains {train_code, departure_station, arrival_station,
 *    departure_time, arrival_time, duration, prices: [{seat_name, price, num}]};
 *  - flight query (航班查询)          GET {base}/flight/query?key&departure&arrival&departureDate: result
 *    {flightInfo: [{flightNo, airlineName, departureName, departureDate, departureTime, arrivalName,
 *    arrivalDate, arrivalTime, ticketPrice}]}; departure and arrival are IATA codes of cities or airports.
 */
import type { Flight, FlightResult, TicketsResult, Train } from '../../../types/travel'
import { ProviderRefusedError, ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'
import { arr, fetchJson, num, obj, str, type Json } from './http'
import { yuanToCents } from './jdUnion'

type JuheProvider = 'juheTrain' | 'juheFlight'

async function juheGet (provider: JuheProvider, base: string, path: string, query: Record<string, string>, timeoutMs: number): Promise<unknown> {
  const url = new URL(base.replace(/\/+$/, '') + path)
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  const answer: Json = await fetchJson(provider, url, { method: 'GET' }, timeoutMs)
  const code = num(answer.error_code)
  if (!Number.isFinite(code)) throw new ProviderUnavailableError(provider, `${path}: unexpected answer`)
  if (code !== 0) throw new ProviderRefusedError(provider, String(code), str(answer.reason) || `error_code ${code}`)
  return answer.result
}

export class JuheTrainClient {
  constructor (private readonly key: string, private readonly apiBase: string, private readonly timeoutMs = PROVIDER_TIMEOUT_MS) {}

  async tickets (from: string, to: string, date: string): Promise<TicketsResult> {
    const result = await juheGet('juheTrain', this.apiBase, '/fapigw/train/query', {
      key: this.key, search_type: '1', departure_station: from, arrival_station: to, date
    }, this.timeoutMs)
    // Juhe answers null (not []) when no train runs that day
    if (result !== null && result !== undefined && !Array.isArray(result)) throw new ProviderUnavailableError('juheTrain', '/fapigw/train/query: unexpected answer')
    const trains: Train[] = arr(result).map(obj).filter(t => str(t.train_code)).map(t => ({
      code: str(t.train_code),
      from: str(t.departure_station),
      to: str(t.arrival_station),
      departs: str(t.departure_time),
      arrives: str(t.arrival_time),
      duration: str(t.duration),
      seats: arr(t.prices).map(obj).map(p => ({ name: str(p.seat_name), priceCents: yuanToCents(p.price), left: str(p.num) }))
    }))
    return { source: 'juhe', date, trains }
  }
}

export class JuheFlightClient {
  constructor (private readonly key: string, private readonly apiBase: string, private readonly timeoutMs = PROVIDER_TIMEOUT_MS) {}

  async flights (from: string, to: string, date: string): Promise<FlightResult> {
    const result = obj(await juheGet('juheFlight', this.apiBase, '/flight/query', {
      key: this.key, departure: from, arrival: to, departureDate: date
    }, this.timeoutMs))
    const flights: Flight[] = arr(result.flightInfo).map(obj).filter(f => str(f.flightNo)).map(f => ({
      flightNo: str(f.flightNo),
      airline: str(f.airlineName),
      from: str(f.departureName),
      to: str(f.arrivalName),
      departs: `${str(f.departureDate)} ${str(f.departureTime)}`.trim(),
      arrives: `${str(f.arrivalDate)} ${str(f.arrivalTime)}`.trim(),
      priceCents: yuanToCents(f.ticketPrice)
    }))
    return { source: 'juhe', date, flights }
  }
}
