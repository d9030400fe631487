// A local AMap web service (API v3, https://restapi.amap.com) for tests: speaks v3/geocode/geo,
// v3/geocode/regeo, v3/ip and v3/direction/driving with GET and `key`. Answers {status: '1', info: 'OK',
// infocode: '10000', ...} or a refusal {status: '0', info, infocode} (INVALID_USER_KEY 10001,
// INVALID_PARAMS 20000, ...). Like AMap it writes [] for fields it has no value for. `fake.next`
// forces the next answer.
const { listen, sendJson, answerTrouble } = require('./http')

const KEY = '0123456789abcdef0123456789abcdef'

const ok = body => ({ status: '1', info: 'OK', infocode: '10000', ...body })

/** What v3/ip knows: a few public addresses; private and local ones are 局域网; the rest unknown. */
const IPS = {
  '183.62.57.1': { province: '广东省', city: '广州市', adcode: '440100', rectangle: '113.1017375,22.93212254;113.6770499,23.3809537' },
  '101.6.6.6': { province: '北京市', city: '北京市', adcode: '110000', rectangle: '116.0119343,39.66127144;116.7829835,40.2164962' }
}

function isPrivate (ip) {
  return /^(10\.|127\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|::ffff:127\.)/.test(ip)
}

function parseLngLat (text) {
  const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(text || '')
  if (!m) return null
  const lng = Number(m[1])
  const lat = Number(m[2])
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null
}

async function start () {
  const fake = { key: KEY, calls: [], next: null, url: '', close: null }
  const refuse = (res, info, infocode) => sendJson(res, { status: '0', info, infocode })

  const handle = (req, res) => {
    const url = new URL(req.url, 'http://fake')
    const q = Object.fromEntries(url.searchParams)
    fake.calls.push({ path: url.pathname, query: q })
    if (answerTrouble(fake, res)) return
    if (!q.key || q.key !== KEY) return refuse(res, 'INVALID_USER_KEY', '10001')
    switch (url.pathname) {
      case '/v3/geocode/geo': return geo(res, q)
      case '/v3/geocode/regeo': return regeo(res, q)
      case '/v3/ip': return ip(res, q)
      case '/v3/direction/driving': return driving(res, q)
      default: return refuse(res, 'INVALID_REQUEST', '20011')
    }
  }

  function geo (res, q) {
    if (!q.address) return refuse(res, 'INVALID_PARAMS', '20000')
    const geocodes = /阜通东大街|望京/.test(q.address)
      ? [{
          formatted_address: '北京市朝阳区阜通东大街6号', country: '中国', province: '北京市', citycode: '010', city: '北京市',
          district: '朝阳区', township: [], neighborhood: { name: [], type: [] }, building: { name: [], type: [] },
          adcode: '110105', street: '阜通东大街', number: '6号', location: '116.482086,39.990496', level: '门牌号'
        }]
      : []
    sendJson(res, ok({ count: String(geocodes.length), geocodes }))
  }

  function regeo (res, q) {
    const at = parseLngLat(q.location)
    if (!at) return refuse(res, 'INVALID_PARAMS', '20000')
    const inBeijing = Math.abs(at.lat - 39.99) < 0.5 && Math.abs(at.lng - 116.48) < 0.5
    sendJson(res, ok({
      regeocode: inBeijing
        ? {
            formatted_address: '北京市朝阳区望京街道方恒国际中心B座',
            addressComponent: {
              country: '中国', province: '北京市', city: [], citycode: '010', district: '朝阳区', adcode: '110105',
              township: '望京街道', towncode: '110105026000',
              streetNumber: { street: '阜通东大街', number: '6号', location: '116.482005,39.990056', direction: '西', distance: '32.5' }
            }
          }
        : { formatted_address: [], addressComponent: { country: [], province: [], city: [], district: [], adcode: [], township: [], streetNumber: { street: [], number: [] } } }
    }))
  }

  function ip (res, q) {
    const address = q.ip || ''
    if (!/^[\d.:a-fA-F]+$/.test(address)) return refuse(res, 'INVALID_PARAMS', '20000')
    const known = IPS[address]
    if (known) return sendJson(res, ok(known))
    if (isPrivate(address)) return sendJson(res, ok({ province: '局域网', city: [], adcode: [], rectangle: [] }))
    sendJson(res, ok({ province: [], city: [], adcode: [], rectangle: [] }))
  }

  function driving (res, q) {
    const from = parseLngLat(q.origin)
    const to = parseLngLat(q.destination)
    if (!from || !to) return refuse(res, 'INVALID_PARAMS', '20000')
    const mid = { lng: to.lng, lat: from.lat }
    const f = p => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`
    const half = (a, b) => ({ lng: (a.lng + b.lng) / 2, lat: (a.lat + b.lat) / 2 })
    sendJson(res, ok({
      count: '1',
      route: {
        origin: q.origin,
        destination: q.destination,
        taxi_cost: '23',
        paths: [{
          distance: '5210',
          duration: '960',
          strategy: '速度最快',
          tolls: '0',
          toll_distance: '0',
          steps: [
            { instruction: '向东行驶2100米右转进入阜通东大街', orientation: '东', road: '阜通西大街', distance: '2100', tolls: '0', duration: '380', polyline: [from, half(from, mid), mid].map(f).join(';'), action: '右转', assistant_action: [] },
            { instruction: '沿阜通东大街行驶3110米到达目的地', orientation: '南', road: '阜通东大街', distance: '3110', tolls: '0', duration: '580', polyline: [mid, half(mid, to), to].map(f).join(';'), action: [], assistant_action: '到达目的地' }
          ]
        }]
      }
    }))
  }

  const server = await listen(handle)
  fake.url = server.url
  fake.close = server.close
  return fake
}

module.exports = { start, KEY }
