// A local JD Union open API router (https://api.jd.com/routerjson) for tests, speaking
// jd.union.open.goods.query as documented: system parameters in the query string (method, app_key,
// timestamp yyyy-MM-dd HH:mm:ss GMT+8, format=json, v=1.0, sign_method=md5, 360buy_param_json) and
// sign = upper-case MD5(secret + sorted k+v pairs + secret). It refuses what JD refuses, in JD's shape
// {error_response: {code, zh_desc, en_desc}}: an unknown app_key, a bad signature, a timestamp more than
// 10 minutes off, an unknown method. A goods query answers
// {jd_union_open_goods_query_responce: {code: '0', queryResult: '<JSON text>'}}.
//
// Its market is made up but deterministic: any keyword has two products (SPUs), each sold by three or
// four shops at prices drawn from the keyword's MD5; a keyword containing 无货 has none. A query by
// spuId answers the offers of a product handed out before. `fake.calls` records each goodsReqDTO.
const { listen, sendJson, answerTrouble, md5 } = require('./http')

const APP_KEY = 'jd-fake-app-key'
const APP_SECRET = 'jd-fake-app-secret'
const SHOPS = ['京东自营旗舰店', '潮玩集合店', '手办研究所', '星球玩具专营店']

const sign = (params, secret) => md5(secret + Object.keys(params).filter(k => k !== 'sign').sort().map(k => `${k}${params[k]}`).join('') + secret).toUpperCase()

/** yyyy-MM-dd HH:mm:ss in GMT+8, as milliseconds since the epoch; NaN when malformed. */
function parseTimestamp (ts) {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(ts || '')
  if (!m) return NaN
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) - 8 * 3600_000
}

/** The goods of a keyword (two SPUs), remembered by spuId. */
function goodsFor (fake, keyword) {
  if (keyword.includes('无货')) return []
  const h = md5(keyword)
  const out = []
  for (let s = 0; s < 2; s++) {
    const spuid = 100000000 + parseInt(h.slice(s * 6, s * 6 + 6), 16) % 90000000
    const base = 2000 + parseInt(h.slice(12 + s * 4, 16 + s * 4), 16) % 30000 // cents
    const count = 3 + s
    for (let i = 0; i < count; i++) {
      const skuId = spuid * 10 + i
      const cents = base + i * 500 + (i % 2) * 199
      out.push({
        skuId,
        spuid,
        skuName: `${keyword} ${s === 0 ? '正版手办' : '盲盒周边'} 款式${i + 1}`,
        priceInfo: { price: cents / 100, lowestPrice: cents / 100, lowestPriceType: 1 },
        shopInfo: { shopName: SHOPS[i % SHOPS.length], shopId: 1000 + i },
        imageInfo: { imageList: [{ url: `https://img14.360buyimg.com/n1/fake/${skuId}.jpg` }] },
        materialUrl: `item.jd.com/${skuId}.html`
      })
    }
  }
  for (const g of out) fake.spus.set(String(g.spuid), keyword)
  return out
}

async function start () {
  const fake = { calls: [], next: null, url: '', close: null, spus: new Map(), now: () => Date.now() }
  const refuse = (res, code, zh, en) => sendJson(res, { error_response: { code, zh_desc: zh, en_desc: en } })
  const server = await listen((req, res) => {
    if (answerTrouble(fake, res)) return
    const url = new URL(req.url, 'http://fake')
    if (url.pathname !== '/routerjson') return sendJson(res, { error_response: { code: '404', zh_desc: '接口不存在', en_desc: 'not found' } }, 404)
    const p = Object.fromEntries(url.searchParams)
    if (p.app_key !== APP_KEY) return refuse(res, '19', '无效的app_key', 'Invalid app_key')
    if (p.sign_method !== 'md5' || p.v !== '1.0' || p.format !== 'json') return refuse(res, '22', '系统参数错误', 'Invalid system parameters')
    if (!p.sign || p.sign !== sign(p, APP_SECRET)) return refuse(res, '13', '签名无效', 'Invalid signature')
    const at = parseTimestamp(p.timestamp)
    if (!Number.isFinite(at) || Math.abs(at - fake.now()) > 10 * 60_000) return refuse(res, '11', '时间戳无效', 'Invalid timestamp')
    if (p.method !== 'jd.union.open.goods.query') return refuse(res, '23', '方法不存在', 'Invalid method')
    let dto
    try { dto = JSON.parse(p['360buy_param_json']).goodsReqDTO } catch { dto = null }
    if (!dto || typeof dto !== 'object') return refuse(res, '26', '业务参数错误', 'Invalid 360buy_param_json')
    fake.calls.push(dto)
    const reply = result => sendJson(res, { jd_union_open_goods_query_responce: { code: '0', queryResult: JSON.stringify(result) } })
    if (dto.keyword === undefined && dto.spuId === undefined) return reply({ code: 400, message: '参数错误：keyword 或 spuId 必填', requestId: 'fake' })
    let goods
    if (dto.spuId !== undefined) {
      const keyword = fake.spus.get(String(dto.spuId))
      goods = keyword === undefined ? [] : goodsFor(fake, keyword).filter(g => g.spuid === dto.spuId)
      if (dto.keyword) goods = goods.filter(g => g.skuName.includes(dto.keyword))
    } else {
      goods = goodsFor(fake, String(dto.keyword))
    }
    const size = Math.min(Number(dto.pageSize) || 20, 50)
    const page = Math.max(Number(dto.pageIndex) || 1, 1)
    reply({ code: 200, message: 'success', requestId: 'fake', totalCount: goods.length, data: goods.slice((page - 1) * size, page * size) })
  })
  fake.url = `${server.url}/routerjson`
  fake.close = server.close
  return fake
}

const envFor = fake => ({ JD_UNION_APP_KEY: APP_KEY, JD_UNION_APP_SECRET: APP_SECRET, JD_UNION_API_BASE: fake.url })

module.exports = { start, envFor, sign, APP_KEY, APP_SECRET }
