// A local Kuaidi100 enterprise API (https://poll.kuaidi100.com) for tests: speaks poll/query.do and
// poll/maptrack.do (POST form: customer, param (JSON), sign = upper-case MD5(param + key + customer)).
// Refusals are {result: false, returnCode, message}: 503 a wrong signature, 601 an unknown customer,
// 400 an unknown carrier, 408 shunfeng's phone check, 500 no record. `fake.parcels` holds the parcels
// it knows (add more in a test); `fake.next` forces the next answer.
const { listen, sendJson, answerTrouble, md5 } = require('./http')

const CUSTOMER = 'ABCDEF0123456789ABCDEF0123456789'
const KEY = 'TestKuaidiKey42'

const CARRIERS = ['shunfeng', 'shunfengkuaiyun', 'zhongtong', 'yuantong', 'yunda', 'shentong', 'ems', 'jd']

function parcels () {
  return {
    SF1234567890123: {
      com: 'shunfeng', phone: '13800138000', state: '5', ischeck: '0',
      data: [
        ['2026-02-27 19:20:11', '[深圳市] 顺丰速运 已收取快件', '揽收', '深圳市'],
        ['2026-02-28 03:41:02', '[深圳市] 快件已发车，正发往【上海转运中心】', '在途', '深圳市'],
        ['2026-02-28 21:12:45', '[上海市] 快件到达【上海转运中心】', '在途', '上海市'],
        ['2026-03-01 08:05:33', '[上海市] 快件交给王师傅，正在派送途中（联系电话：13900000000）', '派件', '上海市,徐汇区']
      ]
    },
    75312345678901: {
      com: 'zhongtong', state: '3', ischeck: '1',
      data: [
        ['2026-02-25 10:00:00', '【广州市】 快件已被 番禺网点 揽收', '揽收', '广州市'],
        ['2026-02-26 02:30:00', '【广州市】 快件离开 广州中心 已发往 北京中心', '在途', '广州市'],
        ['2026-02-27 06:15:00', '【北京市】 快件已到达 北京中心', '在途', '北京市'],
        ['2026-02-27 14:40:00', '【北京市】 快件已签收，签收人: 本人', '签收', '北京市,海淀区']
      ]
    }
  }
}

function record (p, num, extra) {
  // newest first, as asked with order=desc
  const data = p.data.slice().reverse().map(([time, context, status, areaName]) => ({
    time, ftime: time, context, location: '', areaCode: null, areaName, status, areaCenter: null, areaPinYin: null, statusCode: null
  }))
  return { message: 'ok', nu: num, ischeck: p.ischeck, condition: 'F00', com: p.com, status: '200', state: p.state, data, ...extra }
}

async function start () {
  const fake = { customer: CUSTOMER, key: KEY, calls: [], next: null, url: '', close: null, parcels: parcels() }
  const refuse = (res, returnCode, message) => sendJson(res, { result: false, returnCode, message })

  const handle = (req, res, body) => {
    const url = new URL(req.url, 'http://fake')
    const form = Object.fromEntries(new URLSearchParams(body))
    let param = null
    try { param = JSON.parse(form.param || 'null') } catch { param = null }
    fake.calls.push({ path: url.pathname, form, param, contentType: req.headers['content-type'] || '' })
    if (answerTrouble(fake, res)) return
    if (url.pathname !== '/poll/query.do' && url.pathname !== '/poll/maptrack.do') return refuse(res, '404', '接口不存在')
    if (req.method !== 'POST') return refuse(res, '400', '请使用POST请求')
    if (form.customer !== CUSTOMER) return refuse(res, '601', 'customer参数错误或key已过期')
    if (!form.sign || form.sign !== md5(form.param + KEY + CUSTOMER).toUpperCase()) return refuse(res, '503', '验证签名失败')
    if (!param || typeof param !== 'object' || !param.com || !param.num) return refuse(res, '400', '参数错误：缺少com或num')
    if (!CARRIERS.includes(param.com)) return refuse(res, '400', '找不到对应公司')
    const parcel = fake.parcels[param.num]
    if (param.com.startsWith('shunfeng') && (!param.phone || !parcel || !String(parcel.phone || '').endsWith(String(param.phone).slice(-4)))) {
      return refuse(res, '408', '快递公司参数异常：验证码错误')
    }
    if (!parcel || parcel.com !== param.com) return refuse(res, '500', '查询无结果，请隔段时间再查')
    if (url.pathname === '/poll/query.do') return sendJson(res, record(parcel, param.num))
    if (!param.from || !param.to) return refuse(res, '400', '参数错误：缺少from或to')
    sendJson(res, record(parcel, param.num, {
      trailUrl: `https://api.kuaidi100.com/tools/map/${md5(param.num).slice(0, 24)}_${encodeURIComponent(param.to)}`,
      arrivalTime: '2026-03-01 18',
      totalTime: '3天3小时',
      remainTime: parcel.ischeck === '1' ? null : '0天10小时',
      isLoop: false,
      routeInfo: {
        from: { number: 'CN440300000000', name: param.from },
        cur: { number: 'CN310100000000', name: '上海,上海市' },
        to: { number: 'CN310104000000', name: param.to }
      }
    }))
  }

  const server = await listen(handle)
  fake.url = server.url
  fake.close = server.close
  return fake
}

module.exports = { start, CUSTOMER, KEY }
