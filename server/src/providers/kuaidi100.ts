/**
 * Kuaidi100's enterprise API (https://poll.kuaidi100.com): POST application/x-www-form-urlencoded with
 * `customer`, `param` (a JSON text) and `sign` = upper-case hex MD5 of param + key + customer.
 *
 *  - poll/query.do      the real-time track: {message: 'ok', status: '200', state, ischeck, com, nu, data: [...]}
 *  - poll/maptrack.do   the same plus trailUrl, arrivalTime, totalTime, remainTime and routeInfo {from, cur, to}
 *
 * A refusal answers {result: false, returnCode, message} (400 bad request or unknown carrier, 408 the
 * phone does not match, 500 no record yet, 503 signature check failed, 601 key expired or out of credit).
 */
import type { ExpressMapResult, ExpressTrack, TrackEvent } from '../../../types/express'
import { ProviderRefusedError, ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'
import { arr, fetchJson, md5Hex, obj, str, type Json } from './http'
import { placeCentre } from './cityCentres'

const PROVIDER = 'kuaidi100'

export interface Kuaidi100Config { customer: string; key: string }

export interface TrackQuery {
  com: string
  num: string
  phone?: string
  from?: string
  to?: string
  resultv2?: number
}

/** The documented signature: MD5(param + key + customer), upper-case hex. */
export const kuaidi100Sign = (param: string, key: string, customer: string) => md5Hex(param + key + customer).toUpperCase()

function trackOf (answer: Json, q: TrackQuery): ExpressTrack {
  const events: TrackEvent[] = arr(answer.data).map(obj).map(e => ({
    time: str(e.ftime) || str(e.time),
    context: str(e.context),
    status: str(e.status),
    location: str(e.location) || str(e.areaName)
  }))
  // asked newest first (order desc); sorted again in case a carrier's feed is not
  events.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0))
  const state = str(answer.state)
  return {
    com: str(answer.com) || q.com,
    num: str(answer.nu) || q.num,
    state,
    delivered: str(answer.ischeck) === '1' || state === '3',
    events
  }
}

const routePoint = (v: unknown) => {
  const p = obj(v)
  const name = str(p.name)
  if (!name) return null
  const centre = placeCentre(name)
  return { name, adcode: str(p.number), position: centre ? { latitude: centre.latitude, longitude: centre.longitude } : null }
}

export class Kuaidi100Client {
  constructor (
    private readonly config: Kuaidi100Config,
    private readonly apiBase: string,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS
  ) {}

  private async post (path: string, q: TrackQuery, resultv2: string): Promise<Json> {
    const param = JSON.stringify({
      com: q.com,
      num: q.num,
      ...(q.phone ? { phone: q.phone } : {}),
      ...(q.from ? { from: q.from } : {}),
      ...(q.to ? { to: q.to } : {}),
      resultv2,
      show: '0',
      order: 'desc'
    })
    const body = new URLSearchParams({
      customer: this.config.customer,
      sign: kuaidi100Sign(param, this.config.key, this.config.customer),
      param
    })
    const answer = await fetchJson(PROVIDER, new URL(this.apiBase + path), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString()
    }, this.timeoutMs)
    if (answer.result === false || (answer.returnCode !== undefined && str(answer.returnCode) !== '200')) {
      throw new ProviderRefusedError(PROVIDER, str(answer.returnCode) || 'false', str(answer.message) || `returnCode ${str(answer.returnCode)}`)
    }
    if (str(answer.status) !== '200' || !Array.isArray(answer.data)) throw new ProviderUnavailableError(PROVIDER, `${path}: unexpected answer`)
    return answer
  }

  async query (q: TrackQuery): Promise<ExpressTrack> {
    return trackOf(await this.post('/poll/query.do', q, String(q.resultv2 ?? 4)), q)
  }

  async mapTrack (q: TrackQuery): Promise<Extract<ExpressMapResult, { success: true }>> {
    const answer = await this.post('/poll/maptrack.do', q, String(q.resultv2 ?? 5))
    const info = obj(answer.routeInfo)
    return {
      success: true,
      message: str(answer.message) || 'ok',
      track: trackOf(answer, q),
      trailUrl: str(answer.trailUrl),
      arrivalTime: str(answer.arrivalTime),
      totalTime: str(answer.totalTime),
      remainTime: str(answer.remainTime),
      route: { from: routePoint(info.from), current: routePoint(info.cur), to: routePoint(info.to) }
    }
  }
}
