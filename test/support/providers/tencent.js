// A local Tencent location service (WebService API, https://apis.map.qq.com) for tests: speaks
// ws/geocoder/v1 (location= and address=), ws/place/v1/search, ws/place/v1/explore and
// ws/direction/v1/driving with GET, `key`, and `sig` when started with an SK (sig = md5(path + '?' +
// sorted raw params without sig + SK)). Answers {status, message, ...}: 311 for a wrong key, 111 for a
// wrong signature, 310 for bad parameters, 347 when nothing is found; `fake.next` forces the next answer.
const { listen, sendJson, answerTrouble, md5 } = require('./http')

const KEY = 'TESTK-EY123-ABCDE-FGHIJ-KLMNO-PQRST'
const SK = 'TestSecretKey0123456789'

const BEIJING = {
  at: { lat: 39.984154, lng: 116.30749 },
  address: '北京市海淀区北四环西路66号',
  recommend: '海淀区中关村中国技术交易大厦(彩和坊路)',
  component: { nation: '中国', province: '北京市', city: '北京市', district: '海淀区', street: '北四环西路', street_number: '北四环西路66号' },
  adcode: '110108'
}
const SHENZHEN = {
  at: { lat: 22.5431, lng: 114.0579 },
  address: '广东省深圳市福田区福中三路1号',
  recommend: '福田区市民中心(福中三路)',
  component: { nation: '中国', province: '广东省', city: '深圳市', district: '福田区', street: '福中三路', street_number: '福中三路1号' },
  adcode: '440304'
}
const AREAS = [BEIJING, SHENZHEN]

const place = (id, title, address, category, lat, lng, area) => ({ id, title, address, category, lat, lng, area })
const PLACES = [
  place('11526316036035128030', '中国技术交易大厦', '北京市海淀区北四环西路66号', '房产小区:商务楼宇', 39.984154, 116.30749, BEIJING),
  place('7357574398397178958', '中关村广场购物中心', '北京市海淀区中关村大街15号', '购物:综合商场', 39.98263, 116.31161, BEIJING),
  place('2954862766829458741', '海淀图书城', '北京市海淀区海淀西大街', '文化场馆:图书馆', 39.9835, 116.3046, BEIJING),
  place('13418434813432213545', '北京大学', '北京市海淀区颐和园路5号', '教育学校:大学', 39.9925, 116.3105, BEIJING),
  place('4622718285442930542', '中关村(地铁站)', '地铁4号线', '基础设施:交通设施:地铁站', 39.9839, 116.3165, BEIJING),
  place('3758393617262545463', '海淀黄庄(地铁站)', '地铁4号线;地铁10号线', '基础设施:交通设施:地铁站', 39.976, 116.3176, BEIJING),
  place('10791883929617355562', '深圳市民中心', '广东省深圳市福田区福中三路', '政府机关:政府机构', 22.5431, 114.0579, SHENZHEN),
  place('16133063436052936617', '深圳书城中心城', '广东省深圳市福田区福中一路2014号', '购物:书店', 22.5455, 114.0548, SHENZHEN),
  place('6189462536547402633', '深圳会展中心', '广东省深圳市福田区福华三路', '文化场馆:会展中心', 22.5317, 114.0573, SHENZHEN)
]

/** Metres between two points (haversine). */
function distance (a, b) {
  const rad = d => d * Math.PI / 180
  const dLat = rad(b.lat - a.lat)
  const dLng = rad(b.lng - a.lng)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2
  return 2 * 6371000 * Math.asin(Math.sqrt(h))
}

function parseLatLng (text) {
  const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(text || '')
  if (!m) return null
  const lat = Number(m[1])
  const lng = Number(m[2])
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null
}

/** Tencent's compression: two absolute numbers, then each number's difference from the one two before, times 1e6. */
function compress (flat) {
  return flat.map((v, i) => i < 2 ? v : Math.round((v - flat[i - 2]) * 1e6))
}

async function start (options = {}) {
  const sk = options.sk || null
  const fake = { key: KEY, sk, calls: [], next: null, url: '', close: null, places: PLACES }

  const refuse = (res, status, message) => sendJson(res, { status, message, request_id: 'fake' })

  const handle = (req, res) => {
    const url = new URL(req.url, 'http://fake')
    const q = Object.fromEntries(url.searchParams)
    fake.calls.push({ path: url.pathname, query: q })
    if (answerTrouble(fake, res)) return
    if (req.method !== 'GET') return refuse(res, 300, '请求方法错误')
    if (q.key !== KEY) return refuse(res, 311, 'key格式错误')
    if (sk) {
      const { sig, ...rest } = q
      const raw = Object.keys(rest).sort().map(k => `${k}=${rest[k]}`).join('&')
      if (!sig || sig !== md5(`${url.pathname}?${raw}${sk}`)) return refuse(res, 111, '签名验证失败')
    }
    switch (url.pathname.replace(/\/$/, '')) {
      case '/ws/geocoder/v1': return q.location !== undefined ? reverse(res, q) : q.address !== undefined ? forward(res, q) : refuse(res, 310, '请求参数信息有误')
      case '/ws/place/v1/search': return places(res, q, true)
      case '/ws/place/v1/explore': return places(res, q, false)
      case '/ws/direction/v1/driving': return driving(res, q)
      default: return refuse(res, 404, '服务不存在')
    }
  }

  function reverse (res, q) {
    const at = parseLatLng(q.location)
    if (!at) return refuse(res, 310, '请求参数信息有误')
    const area = AREAS.find(a => distance(a.at, at) < 50000)
    if (!area) return refuse(res, 347, '查询无结果')
    sendJson(res, {
      status: 0,
      message: 'query ok',
      request_id: 'fake-reverse',
      result: {
        location: at,
        address: area.address,
        formatted_addresses: { recommend: area.recommend, rough: area.component.district },
        address_component: area.component,
        ad_info: { nation_code: '156', adcode: area.adcode, name: `中国,${area.component.province},${area.component.city},${area.component.district}`, location: area.at, nation: '中国', province: area.component.province, city: area.component.city, district: area.component.district }
      }
    })
  }

  function forward (res, q) {
    const address = q.address.trim()
    if (!address) return refuse(res, 310, '请求参数信息有误')
    const area = /深圳|福田/.test(address) ? SHENZHEN : /北京|海淀|中关村/.test(address) ? BEIJING : null
    if (!area) return refuse(res, 347, '查询无结果')
    sendJson(res, {
      status: 0,
      message: 'query ok',
      result: {
        title: area.component.street_number,
        location: area.at,
        ad_info: { adcode: area.adcode },
        address_components: { province: area.component.province, city: area.component.city, district: area.component.district, street: area.component.street, street_number: area.component.street_number },
        similarity: 0.8,
        deviation: 1000,
        reliability: 7,
        level: 9
      }
    })
  }

  function places (res, q, search) {
    const m = /^nearby\((-?[\d.]+),(-?[\d.]+),(\d+)(?:,([01]))?\)$/.exec(q.boundary || '')
    if (!m) return refuse(res, 310, '请求参数信息有误')
    if (search && !q.keyword) return refuse(res, 310, '请求参数信息有误')
    const centre = { lat: Number(m[1]), lng: Number(m[2]) }
    const radius = Number(m[3])
    const size = Math.min(20, Number(q.page_size || 10))
    const index = Math.max(1, Number(q.page_index || 1))
    const found = PLACES
      .map(p => ({ p, d: distance(centre, p) }))
      .filter(({ p, d }) => d <= Math.max(radius, m[4] === '1' ? 5000 : 0) && (!search || p.title.includes(q.keyword) || p.category.includes(q.keyword) || p.address.includes(q.keyword)))
      .sort((a, b) => a.d - b.d)
    sendJson(res, {
      status: 0,
      message: 'query ok',
      count: found.length,
      request_id: 'fake-places',
      data: found.slice((index - 1) * size, index * size).map(({ p, d }) => ({
        id: p.id,
        title: p.title,
        address: p.address,
        tel: '',
        category: p.category,
        type: 0,
        location: { lat: p.lat, lng: p.lng },
        _distance: Math.round(d * 10) / 10,
        ad_info: { adcode: p.area.adcode, province: p.area.component.province, city: p.area.component.city, district: p.area.component.district }
      }))
    })
  }

  function driving (res, q) {
    const from = parseLatLng(q.from)
    const to = parseLatLng(q.to)
    if (!from || !to) return refuse(res, 310, '请求参数信息有误')
    const metres = distance(from, to)
    if (metres > 2000000) return refuse(res, 374, '起终点距离超长')
    // six points: straight to a corner, then on to the destination
    const corner = { lat: from.lat, lng: to.lng }
    const points = [0, 1 / 3, 2 / 3, 1].map(t => ({ lat: from.lat + (corner.lat - from.lat) * t, lng: from.lng + (corner.lng - from.lng) * t }))
      .concat([0.5, 1].map(t => ({ lat: corner.lat + (to.lat - corner.lat) * t, lng: corner.lng + (to.lng - corner.lng) * t })))
    const flat = points.flatMap(p => [Math.round(p.lat * 1e6) / 1e6, Math.round(p.lng * 1e6) / 1e6])
    const leg1 = Math.round(distance(from, corner))
    const leg2 = Math.round(distance(corner, to))
    sendJson(res, {
      status: 0,
      message: 'query ok',
      result: {
        routes: [{
          mode: 'DRIVING',
          distance: leg1 + leg2,
          duration: Math.max(1, Math.round((leg1 + leg2) / 500)),
          direction: '东',
          polyline: compress(flat),
          steps: [
            { instruction: `沿北四环西路向东行驶${leg1}米,右转`, polyline_idx: [0, 6], road_name: '北四环西路', dir_desc: '东', distance: leg1, act_desc: '右转' },
            { instruction: `沿中关村大街行驶${leg2}米,到达终点`, polyline_idx: [6, 10], road_name: '中关村大街', dir_desc: '南', distance: leg2, act_desc: '到达终点' }
          ]
        }]
      }
    })
  }

  const server = await listen(handle)
  fake.url = server.url
  fake.close = server.close
  return fake
}

module.exports = { start, KEY, SK, PLACES, compress }
