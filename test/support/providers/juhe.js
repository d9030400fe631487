// A local Juhe (聚合数据) for tests, speaking its train ticket query (GET /fapigw/train/query?key
// &search_type&departure_station&arrival_station&date) and its flight query (GET /flight/query?key
// &departure&arrival&departureDate), each with its own key. Answers are {reason, result, error_code}:
// 10001 a wrong key, 10001-style refusals for missing parameters (10005), 225801 an unknown station,
// 10012 when `fake.quotaLeft` reaches 0. A few stations and airports are known; trains and flights are
// made up but the same for the same question. `fake.calls` records each query.
const { listen, sendJson, answerTrouble } = require('./http')

const TRAIN_KEY = 'juhe-fake-train-key'
const FLIGHT_KEY = 'juhe-fake-flight-key'
const STATIONS = ['北京', '北京南', '上海', '上海虹桥', '广州南', '深圳北', '杭州东', '南京南', '武汉', '成都东']
const AIRPORTS = { BJS: '北京', PEK: '北京首都国际机场', PKX: '北京大兴国际机场', SHA: '上海虹桥国际机场', PVG: '上海浦东国际机场', CAN: '广州白云国际机场', SZX: '深圳宝安国际机场', CTU: '成都天府国际机场' }

async function start () {
  const fake = { calls: [], next: null, url: '', close: null, quotaLeft: Infinity }
  const answer = (res, errorCode, reason, result = null) => sendJson(res, { reason, result, error_code: errorCode })
  const server = await listen((req, res) => {
    if (answerTrouble(fake, res)) return
    const url = new URL(req.url, 'http://fake')
    const q = Object.fromEntries(url.searchParams)
    if (url.pathname === '/fapigw/train/query') {
      if (q.key !== TRAIN_KEY) return answer(res, 10001, '错误的请求KEY')
      if (!q.departure_station || !q.arrival_station || !/^\d{4}-\d{2}-\d{2}$/.test(q.date || '') || q.search_type !== '1') return answer(res, 10005, '参数错误')
      if (fake.quotaLeft <= 0) return answer(res, 10012, '请求超过次数限制')
      fake.quotaLeft--
      fake.calls.push({ api: 'train', ...q })
      if (!STATIONS.includes(q.departure_station) || !STATIONS.includes(q.arrival_station)) return answer(res, 225801, '出发站或到达站不存在')
      const trains = ['G1', 'G7', 'D311'].map((code, i) => ({
        train_no: `24000000${i}`, train_code: code, departure_station: q.departure_station, arrival_station: q.arrival_station,
        departure_time: `0${7 + i}:00`, arrival_time: `1${1 + i}:${i}8`, duration: `04:${i}8`, enable_booking: 1,
        prices: [
          { seat_name: '二等座', seat_type_code: 'O', num: i === 2 ? '无' : '有', price: 662 - i * 100 },
          { seat_name: '一等座', seat_type_code: 'M', num: '12', price: 1060.5 - i * 100 }
        ]
      }))
      return answer(res, 0, '查询成功', trains)
    }
    if (url.pathname === '/flight/query') {
      if (q.key !== FLIGHT_KEY) return answer(res, 10001, '错误的请求KEY')
      if (!q.departure || !q.arrival || !/^\d{4}-\d{2}-\d{2}$/.test(q.departureDate || '')) return answer(res, 10005, '参数错误')
      if (fake.quotaLeft <= 0) return answer(res, 10012, '请求超过次数限制')
      fake.quotaLeft--
      fake.calls.push({ api: 'flight', ...q })
      if (!AIRPORTS[q.departure] || !AIRPORTS[q.arrival]) return answer(res, 225801, '出发地或到达地不存在')
      const flightInfo = ['CA1501', 'MU5101'].map((flightNo, i) => ({
        airlineName: i ? '东方航空' : '中国国航', flightNo, departure: q.departure, departureName: AIRPORTS[q.departure],
        departureDate: q.departureDate, departureTime: `0${8 + i}:30`, arrival: q.arrival, arrivalName: AIRPORTS[q.arrival],
        arrivalDate: q.departureDate, arrivalTime: `1${0 + i}:45`, duration: '2h15m', ticketPrice: 980 + i * 120, transferNum: 0
      }))
      return answer(res, 0, '查询成功', { orderid: 'fake', flightCount: flightInfo.length, flightInfo })
    }
    sendJson(res, { reason: 'not found', result: null, error_code: 10020 }, 404)
  })
  fake.url = server.url
  fake.close = server.close
  return fake
}

const envFor = fake => ({ JUHE_API_BASE: fake.url, JUHE_TRAIN_KEY: TRAIN_KEY, JUHE_FLIGHT_KEY: FLIGHT_KEY })

module.exports = { start, envFor, TRAIN_KEY, FLIGHT_KEY, STATIONS, AIRPORTS }
