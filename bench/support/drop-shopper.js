/**
 * One shopper at a drop with a waiting room, through the HTTP API as the app goes (drop.js):
 * - the waiting room (src/pagesA/blind_box_detail/QueuePanel.tsx): POST /api/dropQueue, asked again
 *   after the answer's pollMs, and while in line with waitMs HOLD_MS (the server holds the answer until
 *   the turn comes or the drop sells out); a 429 is waited out as its retryAfter says, any other failure is asked
 *   again after 5 s; 'left' (their time ran out) is asked again too (the server puts them at the back);
 * - once let in ('shopping'), the purchase page (src/pagesA/purchase/flow.ts): the case (POST
 *   /api/caseCurrent), 1-3 free boxes picked at random, the check (POST /api/purchaseCheck), then the
 *   purchase (POST /api/casePurchase, with an idempotency key). Told "slot sold" they look again, up to
 *   ATTEMPTS times; then they leave. Told sold out (by the room or the case call), they leave.
 * Every answer is counted in `tally`; a call without an answer in TIMEOUT_MS is a timeout.
 */
const { randomInt } = require('node:crypto')
const http = require('node:http')
const { post } = require('./shop-child')

/**
 * The shoppers reach the shop as through the proxy in front of it (nginx), over one pool of upstream
 * connections for every call: a connection is opened when every one open is busy (a held room answer
 * keeps its connection up to HOLD_MS, so there are as many as there are shoppers held), and kept open
 * between calls (maxFreeSockets: nginx's `keepalive`, sized to the crowd as docs/scaling.md says).
 * - With node's default of 256 idle ones kept, each burst of answers (the draw, the sell-out) closed
 *   thousands of them, and the asks again opened as many at once: the shop's listen backlog overflowed
 *   (21,189 connections dropped in one run) and each dropped one waited 1, 3 or 7 s for TCP to try again.
 * - The purchase calls had a pool of their own (256, 2026-11-28): at the draw, the first shoppers let in
 *   opened it, a few hundred new connections while the room told ten thousand their places, and their
 *   case views timed out waiting to be taken. A proxy has one pool per upstream, whatever the call.
 */
const upstream = new http.Agent({ keepAlive: true, maxFreeSockets: 100_000 })
/** Connections opened, by epoch second (a burst of new ones is a burst of SYNs at the shop). */
const opened = new Map()
{
  const create = upstream.createConnection.bind(upstream)
  upstream.createConnection = (...args) => {
    const second = Math.floor(Date.now() / 1000)
    opened.set(second, (opened.get(second) || 0) + 1)
    return create(...args)
  }
}
/** QueuePanel's HOLD_MS. */
const HOLD_MS = 25000

const TIMEOUT_MS = 10000
/** The purchase's goal (bench/drop.js GOALS.purchaseP99Ms), for telling where the slow ones were sent. */
const PURCHASE_GOAL_MS = 200
const PURCHASE_CALLS = new Set(['view', 'check', 'buy'])
/** The app asks the room again after this long when a call failed (not a 429): QueuePanel's RETRY_MS. */
const RETRY_MS = 5000
const ATTEMPTS = 3

const sleep = ms => new Promise(resolve => setTimeout(resolve, Math.max(0, ms)))

function newTally () {
  return {
    ms: { queue: [], held: [], heldLate: [], placeTold: [], view: [], check: [], buy: [] },
    /** Unheld calls answered after more than a second: { key, sentAt (epoch ms), ms }. */
    slow: [],
    /** When the purchase calls (case, check, purchase) answered past PURCHASE_GOAL_MS were sent (epoch ms). */
    slowPurchase: [],
    /** Room answers by state, and purchase answers (check and purchase) by kind. */
    states: {},
    answers: { check: {}, buy: {} },
    http5xx: 0,
    timeouts: 0,
    /** Timeouts by call: the room (queue, held), the case (view), the check, the purchase (buy). */
    timeoutsBy: {},
    unexpected: [],
    boxes: 0,
    purchases: 0,
    /** Purchases sent that got no answer (a timeout, a reset connection, a 5xx). */
    buysUnanswered: 0,
    /** When each purchase that bought something was answered (epoch ms). */
    lastBuyAt: 0
  }
}

/** One call, counted: the answer, or null when there was none (a timeout, a 5xx, not JSON). */
async function call (tally, key, base, route, body, token, via = { timeoutMs: TIMEOUT_MS, agent: upstream }) {
  try {
    const r = await post(base, route, body, token, via)
    tally.ms[key].push(r.ms)
    // when in the run the slow ones came (a burst shows as a cluster)
    if (r.ms > (key === 'held' ? HOLD_MS + 1000 : 1000)) tally.slow.push({ key, sentAt: Date.now() - r.ms, ms: r.ms })
    // the purchase's calls past its goal, by when they were sent (where in the drop the p99 comes from)
    if (PURCHASE_CALLS.has(key) && r.ms > PURCHASE_GOAL_MS) tally.slowPurchase.push(Date.now() - r.ms)
    if (r.status >= 500 || r.body.code >= 500) { tally.http5xx++; return null }
    return r
  } catch (err) {
    if (err.timeout) {
      tally.timeouts++
      tally.slow.push({ key: `${key} timeout`, sentAt: Date.now() - via.timeoutMs, ms: via.timeoutMs })
      tally.timeoutsBy[key] = (tally.timeoutsBy[key] || 0) + 1
    } else if (err.status >= 500) tally.http5xx++
    else tally.unexpected.push(err.message)
    return null
  }
}

/** What a purchase answer (or its check) was: ok, slot sold, case sold out, queue, or its code. */
function kindOf (body) {
  const d = body.data || {}
  if (body.code === 200) return 'ok'
  if (body.code === 409 && d.reason === 'queue') return 'queue'
  if (body.code === 409 && d.slot !== undefined) return d.field === 'slots' && /reserv/i.test(body.message) ? 'slot reserved' : 'slot sold'
  if (body.code === 409 && (d.reason === 'sold_out' || /sold ?out/i.test(body.message || ''))) return 'case sold out'
  return `${body.code} ${d.reason ?? d.field ?? ''}`.trim()
}

const count = (o, k) => { o[k] = (o[k] || 0) + 1 }

/** Let in: look at the case, pick, check, buy. Answers 'bought', 'soldOut', 'queue' (not let in any more) or 'gaveUp'. */
async function shop (s, tally) {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const view = await call(tally, 'view', s.base, '/api/caseCurrent', { seriesId: s.seriesId }, s.token)
    if (!view) continue
    if (view.body.code !== 200) {
      const reason = view.body.data?.reason
      if (reason === 'sold_out') return 'soldOut'
      if (reason === 'queue') return 'queue'
      tally.unexpected.push(`caseCurrent: ${JSON.stringify(view.body).slice(0, 200)}`)
      return 'gaveUp'
    }
    const free = view.body.data.slots.filter(x => !x.sold).map(x => x.slot)
    const pick = []
    while (pick.length < Math.min(s.wanted, free.length)) pick.push(...free.splice(randomInt(0, free.length), 1))
    if (!pick.length) continue
    const order = { caseId: view.body.data.caseId, slots: pick.sort((a, b) => a - b), acknowledged: true, priceCents: s.priceCents }
    const check = await call(tally, 'check', s.base, '/api/purchaseCheck', order, s.token)
    if (!check) continue
    const checked = kindOf(check.body)
    count(tally.answers.check, checked)
    if (checked === 'queue') return 'queue'
    if (checked !== 'ok') continue
    const buy = await call(tally, 'buy', s.base, '/api/casePurchase', { ...order, idempotencyKey: `drop-${s.i}-${attempt}` }, s.token)
    // no answer: the purchase may have been made all the same (the audit allows for it)
    if (!buy) { tally.buysUnanswered++; continue }
    const bought = kindOf(buy.body)
    count(tally.answers.buy, bought)
    if (bought === 'ok') {
      tally.purchases++
      tally.boxes += buy.body.data.prizes.length
      tally.lastBuyAt = Math.max(tally.lastBuyAt, Date.now())
      return 'bought'
    }
    if (bought === 'queue') return 'queue'
  }
  return 'gaveUp'
}

/**
 * A shopper `s` ({ i, base, token, dropId, seriesId, priceCents, wanted, arriveAt, endAt }: times in
 * epoch ms): arrives at arriveAt, leaves by endAt at the latest. Answers how it ended: { end, letIn,
 * soldOutAt (epoch ms when told sold out, or null) }.
 */
async function dropShopper (s, tally) {
  await sleep(s.arriveAt - Date.now())
  const out = { end: 'still waiting', letIn: false, soldOutAt: null }
  let inLine = false
  // the place last told (QueuePanel sends it with each held ask)
  let seen = null
  while (Date.now() < s.endAt) {
    const q = inLine
      ? await call(tally, 'held', s.base, '/api/dropQueue', { dropId: s.dropId, waitMs: HOLD_MS, seenPosition: seen }, s.token, { timeoutMs: HOLD_MS + TIMEOUT_MS, agent: upstream })
      : await call(tally, 'queue', s.base, '/api/dropQueue', { dropId: s.dropId }, s.token, { timeoutMs: TIMEOUT_MS, agent: upstream })
    if (!q) { await sleep(RETRY_MS); continue }
    if (q.body.code === 429) { count(tally.states, '429'); await sleep(Math.max(1, Number(q.body.data?.retryAfter ?? 1)) * 1000); continue }
    if (q.body.code !== 200) { tally.unexpected.push(`dropQueue: ${JSON.stringify(q.body).slice(0, 200)}`); await sleep(RETRY_MS); continue }
    const v = q.body.data
    // a held answer given at the end of its hold (nothing changed: ask again at once): how late past it
    if (inLine && v.pollMs === 0 && v.position === seen) tally.ms.heldLate.push(Math.max(0, q.ms - HOLD_MS))
    // told their place for the first time after the draw: held across it, how long after the draw; asked
    // after it (their hold ended just before), the answer's time (the server answers it at once: seenPosition)
    if (inLine && seen === null && v.position !== null) {
      const sentAt = Date.now() - q.ms
      const orderAt = Date.parse(v.orderAt)
      tally.ms.placeTold.push(sentAt > orderAt ? q.ms : Date.now() - orderAt)
    }
    inLine = v.state === 'waiting' || v.state === 'early'
    seen = v.position
    count(tally.states, v.state)
    if (v.state === 'sold_out') return { ...out, end: 'told sold out', soldOutAt: Date.now() }
    if (v.state === 'shopping') {
      out.letIn = true
      const r = await shop(s, tally)
      if (r === 'soldOut') return { ...out, end: 'told sold out', soldOutAt: Date.now() }
      if (r === 'bought' || r === 'gaveUp') return { ...out, end: r }
      // 'queue': their turn ended under them; back to the room
    }
    await sleep(v.pollMs)
  }
  return out
}

module.exports = { dropShopper, newTally, upstream, opened, TIMEOUT_MS, HOLD_MS }
