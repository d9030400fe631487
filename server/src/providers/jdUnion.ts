/**
 * JD Union's open API (京东联盟开放平台, router https://api.jd.com/routerjson), the market the price
 * comparison asks. One documented call, jd.union.open.goods.query (关键词商品查询): the system
 * parameters method, app_key, timestamp (yyyy-MM-dd HH:mm:ss, GMT+8), format=json, v=1.0,
 * sign_method=md5 and 360buy_param_json ({"goodsReqDTO": {...}}) go in the query string, with
 *
 *   sign = upper-case hex MD5(appSecret + k1v1 + k2v2 + ... + appSecret), keys sorted, sign left out.
 *
 * The answer is {jd_union_open_goods_query_responce: {code: '0', queryResult: '<JSON text>'}} whose
 * queryResult is {code: 200, message, totalCount, data: [goods]} (each with skuId, skuName, spuid,
 * priceInfo.price in yuan, shopInfo.shopName, imageInfo.imageList[].url, materialUrl). A refused call
 * answers {error_response: {code, zh_desc, en_desc}}, or a queryResult whose code is not 200.
 *
 * Answers are kept for PRICE_LIMITS.cacheMs (keyed by the request), so a page opened again does not
 * spend quota; a kept answer keeps the time it was asked.
 */
import type { Offer, Spu, SpuGoodsResult, SpuSearchResult } from '../../../types/bijia'
import { PRICE_LIMITS } from '../../../types/limits'
import { ProviderRefusedError, ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'
import { arr, fetchJson, md5Hex, num, obj, str, type Json } from './http'

const PROVIDER = 'jdUnion'
const METHOD = 'jd.union.open.goods.query'
const CACHE_MAX = 500

export interface JdUnionConfig { appKey: string; appSecret: string }

/** The documented signature: MD5 of secret, the sorted keys each followed by its value, secret; upper-case hex. */
export function jdSign (params: Record<string, string>, secret: string): string {
  const joined = Object.keys(params).filter(k => k !== 'sign').sort().map(k => `${k}${params[k]}`).join('')
  return md5Hex(`${secret}${joined}${secret}`).toUpperCase()
}

/** JD's timestamp: the wall clock in China (GMT+8), yyyy-MM-dd HH:mm:ss. */
export function jdTimestamp (ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')
}

/** Yuan (a number or a numeric text) to whole cents; null when it is not a price. */
export function yuanToCents (v: unknown): number | null {
  const n = num(v)
  if (!Number.isFinite(n) || n < 0 || n > 1e9) return null
  return Math.round(n * 100)
}

/** The middle offer (the lower middle of an even count), cents; null for none. */
export function medianOf (cents: number[]): number | null {
  if (cents.length === 0) return null
  const sorted = [...cents].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2)
}

interface Goods { skuId: string; spuId: string; title: string; shop: string; priceCents: number; url: string; image: string }

function goodsOf (v: unknown): Goods | null {
  const g = obj(v)
  const skuId = str(g.skuId)
  const priceCents = yuanToCents(obj(g.priceInfo).price)
  if (!/^\d+$/.test(skuId) || priceCents === null) return null
  const material = str(g.materialUrl)
  return {
    skuId,
    spuId: /^\d+$/.test(str(g.spuid)) && str(g.spuid) !== '0' ? str(g.spuid) : skuId,
    title: str(g.skuName),
    shop: str(obj(g.shopInfo).shopName),
    priceCents,
    url: material ? (/^https?:\/\//.test(material) ? material : `https://${material.replace(/^\/+/, '')}`) : `https://item.jd.com/${skuId}.html`,
    image: str(obj(arr(obj(g.imageInfo).imageList)[0]).url)
  }
}

export class JdUnionClient {
  private readonly cache = new Map<string, { at: number; value: unknown }>()

  constructor (
    private readonly config: JdUnionConfig,
    private readonly apiBase: string,
    private readonly now: () => number = Date.now,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS
  ) {}

  /** One goods query; the decoded queryResult. */
  private async query (req: Record<string, unknown>): Promise<{ total: number; goods: Goods[] }> {
    const params: Record<string, string> = {
      method: METHOD,
      app_key: this.config.appKey,
      timestamp: jdTimestamp(this.now()),
      format: 'json',
      v: '1.0',
      sign_method: 'md5',
      '360buy_param_json': JSON.stringify({ goodsReqDTO: req })
    }
    const url = new URL(this.apiBase)
    for (const [k, v] of Object.entries({ ...params, sign: jdSign(params, this.config.appSecret) })) url.searchParams.set(k, v)
    const answer = await fetchJson(PROVIDER, url, { method: 'GET' }, this.timeoutMs)
    const refused = obj(answer.error_response)
    if (Object.keys(refused).length) {
      throw new ProviderRefusedError(PROVIDER, str(refused.code) || 'error', str(refused.zh_desc) || str(refused.en_desc) || 'refused')
    }
    const wrapper = obj(answer.jd_union_open_goods_query_responce ?? answer.jd_union_open_goods_query_response)
    let result: Json
    try {
      result = obj(JSON.parse(str(wrapper.queryResult)))
    } catch {
      throw new ProviderUnavailableError(PROVIDER, `${METHOD}: no queryResult in the answer`)
    }
    const code = str(result.code)
    if (!code) throw new ProviderUnavailableError(PROVIDER, `${METHOD}: unexpected answer`)
    if (code !== '200') throw new ProviderRefusedError(PROVIDER, code, str(result.message) || `code ${code}`)
    const goods = arr(result.data).map(goodsOf).filter((g): g is Goods => g !== null)
    const total = num(result.totalCount)
    return { total: Number.isInteger(total) && total >= 0 ? total : goods.length, goods }
  }

  private async cached<T> (key: string, fn: () => Promise<T>): Promise<T> {
    const now = this.now()
    const hit = this.cache.get(key)
    if (hit && now - hit.at < PRICE_LIMITS.cacheMs && hit.at <= now) return hit.value as T
    const value = await fn()
    this.cache.delete(key)
    this.cache.set(key, { at: now, value })
    // the oldest entries go first
    while (this.cache.size > CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string)
    return value
  }

  /** The products matching a keyword: goods grouped by spuId, each with its lowest offer. */
  async searchSpus (keyword: string, page = 1): Promise<SpuSearchResult> {
    return this.cached(`spu|${page}|${keyword}`, async () => {
      const asOf = new Date(this.now()).toISOString()
      const { total, goods } = await this.query({ keyword, pageIndex: page, pageSize: PRICE_LIMITS.pageSize })
      const bySpu = new Map<string, Spu>()
      for (const g of goods) {
        const spu = bySpu.get(g.spuId)
        if (!spu) bySpu.set(g.spuId, { spuId: g.spuId, name: g.title, image: g.image, lowestCents: g.priceCents, offers: 1 })
        else {
          spu.offers++
          if (g.priceCents < spu.lowestCents) spu.lowestCents = g.priceCents
        }
      }
      return { source: 'jd', asOf, page, total, list: [...bySpu.values()] }
    })
  }

  /** The offers of one product, cheapest first, with the lowest and median price. */
  async spuGoods (spuId: string, keyword?: string): Promise<SpuGoodsResult> {
    return this.cached(`goods|${spuId}|${keyword ?? ''}`, async () => {
      const asOf = new Date(this.now()).toISOString()
      const { goods } = await this.query({ spuId: Number(spuId), ...(keyword ? { keyword } : {}), pageIndex: 1, pageSize: PRICE_LIMITS.pageSize })
      const offers: Offer[] = goods
        .sort((a, b) => a.priceCents - b.priceCents)
        .map(({ skuId, title, shop, priceCents, url, image }) => ({ skuId, title, shop, priceCents, url, image }))
      const cents = offers.map(o => o.priceCents)
      return { source: 'jd', asOf, spuId, offers, lowestCents: cents.length ? cents[0] : null, medianCents: medianOf(cents) }
    })
  }
}
