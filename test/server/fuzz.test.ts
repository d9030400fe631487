/**
 * Schema fuzz from the OpenAPI document (issue 7). For every operation the server documents (the
 * table API and the WeChat Pay notification included), at least PER_OPERATION requests built from
 * its own request schemas and then broken on purpose, on SQLite and PostgreSQL:
 *
 *  - field      for every field of the body (and of the table API's param): each wrong type, a missing
 *               required field, numbers out of range (negative, 0, -0, fractions, 1e17, 2^63+1 as
 *               written, 1e308, 1e400), strings over maxLength, control characters, lone surrogates,
 *               Unicode edge cases, duplicate keys, own `__proto__` keys, nesting 1,000+ deep
 *  - query      the same for every query parameter, repeated parameters, bad percent-encoding
 *  - raw        bodies that are not what they say: empty, `null`, not JSON, truncated, 20,000 levels
 *               deep, not UTF-8, wrong content types (text/plain, form-urlencoded, multipart ...)
 *  - whole      the whole body is something else (an array, a string, deep nesting)
 *  - header     broken bearer tokens, odd Accept-Language and other headers
 *  - method / path  other HTTP methods and near-miss paths of the operation
 *  - valid / mutate  valid requests naming real things (series, cases, prizes, addresses, orders,
 *               fresh keys and WeChat codes), and the same with 1-3 changes anywhere in the body, so
 *               that requests reach past validation into the handlers and their database code
 *  - notify     WeChat Pay notifications signed with the platform key (the fake's) whose headers,
 *               body and encrypted transaction are broken, real orders settled, and unsigned junk
 *
 * Requests go anonymously and with a logged-in shopper's token (a user route answers 401 before
 * validation without one), each from its own client IP. The third parties are local fakes (SMS,
 * SMTP, WeChat, WeChat Pay, Tencent maps, AMap, Kuaidi100, the Feishu and WeCom robots), so the login,
 * payment, map, parcel and mail handlers run to the end and the operator alerts go out.
 *
 * Asserted: no HTTP 5xx; every answer on an API path is HTTP 200 JSON with the envelope {code, message,
 * data} (code one of the documented ones; a code 200 answer matches the operation's documented answer)
 * except a successful xlsx export and the notification route, which answers WeChat Pay's own shape (204
 * with no body, or 4xx {code: 'FAIL', message}); no unhandled error in the log; no prototype pollution;
 * the books hold afterwards. Every operation must get past validation. Deterministic: the generator is
 * seeded per operation, and a failure prints the operation, the request and the answer.
 * FUZZ_ONLY=<part of an operation> runs only the matching operations (for a replay).
 */
import fs from 'node:fs'
import path from 'node:path'
import { createHash } from 'node:crypto'
import { PDFDocument } from 'pdf-lib'
// the document is OpenAPI 3.1: its schemas are JSON Schema 2020-12 (a tuple is prefixItems closed by items: false)
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import type { LightMyRequestResponse } from 'fastify'
import { testDialects } from './support/db'
import { createTestApp, nextIp, post, PREFIX, type TestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, topUp, type Shopper } from './support/shop'
import { startSms, startSmtp, startWeChat, type FakeSms, type FakeSmtp, type FakeWeChat } from './support/fakes'
import { encryptResource, PAY, startWeChatPay, type FakeWeChatPay } from './support/wechatpay'
import { invariantViolations } from './support/invariants'
import { SessionService } from '../../server/src/domain/account/sessions'
import { createDrop } from '../../server/src/domain/catalogue/drops'
import { loggerOptions } from '../../server/src/http/logging'
import { EXPRESS_LIMITS, OPERATOR_LIMITS, PDF_URL_PATTERN, PRICE_LIMITS, TOPUP_PRODUCT_ID, TRAVEL_LIMITS } from '../../types/limits'
import * as tencentFake from '../support/providers/tencent'
import * as amapFake from '../support/providers/amap'
import * as kuaidi100Fake from '../support/providers/kuaidi100'
import * as difyFake from '../support/providers/dify'
import * as imagesFake from '../support/providers/images'
import { makePng, multipartBody } from '../support/png'
import { renderText } from '../support/textImage'
import * as cogvideoFake from '../support/providers/cogvideo'
import * as sunoFake from '../support/providers/suno'
import * as jdFake from '../support/providers/jdunion'
import * as juheFake from '../support/providers/juhe'
import { METHOD_NAMES } from '../../types/methods'
import * as feishuFake from '../support/providers/feishu'
import * as wecomFake from '../support/providers/wecom'

/** The shop's complaint mailbox: the one address a shopper's /common/mail/send may name. */
const MAILBOX = 'fuzz-mailbox@example.test'

/** Requests per operation, at least. */
const PER_OPERATION = 240
/** A picture with Chinese and English text (OCR has something to read). */
const textPicture = renderText(['运单号 SF1402339827156', 'Fuzz label'], { px: 28 })
/** Random requests (valid, mutated, whole-body) per operation on top of the systematic ones. */
const RANDOM_MIN = 80
const SEED = 20261122
const NOTIFY_PATH = `${PREFIX}/generalOrder/notify/wechat`
const ENVELOPE_CODES = new Set([200, 400, 401, 403, 404, 409, 422, 429])
/** Error lines the server writes on purpose: a signed payment WeChat Pay reports that matches no order. */
const OPERATOR_ALERTS = ['WeChat Pay: payment for an unknown order', 'WeChat Pay: the payment does not match the order']
/** The log lines the fuzz fails on (an operator alert among them is then let through). */
const ERROR_LINE = /unhandled error|"level":(50|60)/

// ---- the document ----------------------------------------------------------------------------------

interface Schema {
  type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema | false; prefixItems?: Schema[]
  enum?: unknown[]; const?: unknown; anyOf?: Schema[]; minimum?: number; maximum?: number
  minLength?: number; maxLength?: number; pattern?: string; format?: string; minItems?: number; maxItems?: number
}
interface Param { in: string; name: string; required?: boolean; schema: Schema }
interface DocOperation {
  requestBody?: { content: Record<string, { schema: Schema }> }
  parameters?: Param[]
  security?: Array<Record<string, unknown>>
  responses?: Record<string, { content?: Record<string, { schema: Schema }> }>
}
interface Doc { paths: Record<string, Record<string, DocOperation>>; components?: { schemas?: Record<string, Schema> } }

interface Op {
  key: string
  method: 'GET' | 'POST'
  url: string
  auth: 'required' | 'optional' | 'none'
  body: Schema | null
  query: Param[]
  kind: 'plain' | 'table' | 'notify'
  /** The document says a success is an xlsx file (the table export, the collection export). */
  xlsx: boolean
  /** The call takes a file (multipart/form-data; the document names its field). */
  file?: string
  /** Checks a code-200 answer against the documented one. */
  answer?: ValidateFunction
}

// ---- generator ----------------------------------------------------------------------------------

/** mulberry32: a small seeded generator, so a failure replays. */
function prng (seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return {
    next,
    int,
    pick: <T>(xs: readonly T[]): T => xs[int(xs.length)],
    shuffle: <T>(xs: T[]): T[] => {
      for (let i = xs.length - 1; i > 0; i--) {
        const j = int(i + 1)
        ;[xs[i], xs[j]] = [xs[j], xs[i]]
      }
      return xs
    }
  }
}
type Rng = ReturnType<typeof prng>

/** FNV-1a: each operation's own seed, so that one operation replays alone. */
const hashOf = (s: string) => {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h >>> 0
}

/** JSON text put into a body as it is: numbers JSON.stringify cannot write (1e400, -0, 2^63+1 exactly), deep nesting. */
class Raw { constructor (readonly text: string) {} }

function encode (value: unknown): string {
  const raws: string[] = []
  const json = JSON.stringify(value, (_key, v: unknown) => v instanceof Raw ? `@@raw${raws.push(v.text) - 1}@@` : v) ?? 'null'
  return raws.length ? json.replace(/"@@raw(\d+)@@"/g, (_m, i: string) => raws[Number(i)]) : json
}

/**
 * The deep bodies, made once per depth: every field's edges carry three of them, and building them
 * afresh for each of the 50,000 requests was a quarter of the run's CPU (the strings and their garbage).
 * A Raw is never changed, so one value serves every request that sends it.
 */
const madeDeep = new Map<string, Raw>()
const deep = (kind: string, n: number, make: () => string) => {
  const key = `${kind}:${n}`
  let made = madeDeep.get(key)
  if (!made) madeDeep.set(key, made = new Raw(make()))
  return made
}
/** n levels of `[`, of `{"a":`, or of both in turn (`{"a":[{"a":[...`), around 1; closed in order. */
const arraysText = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n)
const objectsText = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)
const mixedText = (n: number) => '{"a":['.repeat(n >> 1) + (n & 1 ? '{"a":' : '') + '1' + (n & 1 ? '}' : '') + ']}'.repeat(n >> 1)
const deepArrays = (n: number) => deep('arrays', n, () => arraysText(n))
const deepObjects = (n: number) => deep('objects', n, () => objectsText(n))
const deepMixed = (n: number) => deep('mixed', n, () => mixedText(n))

/** Sets an own property, `__proto__` included (an assignment would set the prototype instead). */
function put<T extends Record<string, unknown>> (obj: T, key: string, value: unknown): T {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
  return obj
}
const protoObject = (value: unknown) => put({}, '__proto__', value)
const copyObject = (obj: Record<string, unknown>) => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(obj)) put(out, k, obj[k])
  return out
}
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Raw)

/** Wrong types for any field (the valid value wrapped included). */
const wrongTypes = (v: unknown): unknown[] => ['1', 1, 1.5, true, null, [], {}, [v], { value: v }]

const NUMBER_EDGES = (s: Schema): unknown[] => [
  0, -1, new Raw('-0'), 0.5, -0.5, 1e-9, Number.MIN_VALUE, new Raw('1.0'), new Raw('1E2'), new Raw('1e400'), new Raw('-1e400'),
  new Raw('9223372036854775809'), new Raw('123456789012345678901234567890'), 1e17, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2,
  2 ** 63, -(2 ** 63), 1e308, -1e308, (s.minimum ?? 0) - 1, s.maximum ?? 2 ** 53 - 1, (s.maximum ?? 2 ** 53 - 1) + 1,
  'NaN', 'Infinity', '-Infinity', '1e17', '0x10', ' 1', '١'
]

const X40K = 'x'.repeat(40_000)
const X100K = 'x'.repeat(100_000)
const STRING_EDGES = (s: Schema, v: unknown): unknown[] => {
  const max = s.maxLength ?? 100
  const text = typeof v === 'string' ? v : 'abc'
  return [
    '', ' ', '\t', 'x'.repeat(max + 1), '字'.repeat(max + 1), '😀'.repeat(max), '\ufdfa'.repeat(Math.min(max, 60)), X40K, X100K,
    'a\u0000b', '\u0000', '\u0007', '\u001b[31m', '\u007f', '\r\n', '\u0085', '\u2028', '\ud800', '\udfff', 'a\ud800b', '\udc00\ud800',
    '\u202e' + text, '\ufeff' + text, text + '\u200b', 'e\u0301'.repeat(20), 'İ', 'ß', 'ﬃ', '𝔘𝔫𝔦', 'NaN', '-0',
    // eslint-disable-next-line no-template-curly-in-string -- template-injection probes, literal on purpose
    "' OR 1=1 --", '"; DROP TABLE users; --', '%00', '${7*7}', '{{7*7}}', '../../etc/passwd', '<script>alert(1)</script>',
    text + ' ', ' ' + text, text.toUpperCase(), text + '\u0000'
  ]
}

/** The values tried for one field: wrong types, then the edges of its kind, nesting and prototype keys. */
function edgesFor (s: Schema, v: unknown): unknown[] {
  const options = s.anyOf ?? [s]
  const types = new Set(options.flatMap(o => o.type === undefined ? [] : Array.isArray(o.type) ? o.type : [o.type]))
  const out = wrongTypes(v)
  if (types.has('integer') || types.has('number')) out.push(...NUMBER_EDGES(options.find(o => o.type === 'integer' || o.type === 'number') ?? s))
  if (types.has('string')) out.push(...STRING_EDGES(options.find(o => o.type === 'string') ?? s, v))
  if (types.has('boolean')) out.push('true', 'false', 0, 1)
  const enumValues = options.flatMap(o => o.enum ?? (o.const !== undefined ? [o.const] : []))
  if (enumValues.length) {
    const e = String(enumValues[0])
    out.push(e.toUpperCase(), e + ' ', e + '\u0000', 'other', enumValues)
  }
  if (types.has('array')) {
    const item = s.items || s.prefixItems?.[0] || {}
    const one = Array.isArray(v) && v.length ? v[0] : 1
    out.push([null], [one, one], Array.from({ length: (s.maxItems ?? 100) + 1 }, (_, i) => typeof one === 'number' ? i + 1 : one),
      Array(100).fill(one), [...NUMBER_EDGES(item).slice(0, 8)], ['1'], [[one]], [{}], [-1], [0], [2 ** 53], [item.maximum === undefined ? 1e17 : item.maximum + 1])
  }
  if (types.has('object')) out.push(put({}, 'extra', 1), deepObjects(2000))
  out.push(deepArrays(1000), deepObjects(1200), deepMixed(3000), protoObject(v), put({}, 'constructor', { prototype: { polluted: 1 } }))
  return out
}

/** Hostile values for the random mutations. */
const HOSTILE: unknown[] = [
  null, true, false, 0, -1, 0.5, new Raw('-0'), 1e17, 2 ** 63 + 1, new Raw('9223372036854775809'), 1e308, -1e308, new Raw('1e400'),
  '', ' ', '1', 'true', 'null', 'NaN', 'Infinity', 'a\u0000b', '\u0007', '\u001b[31m', '\u007f', '\ud800', '\udfff', 'a\ud800b\udc00',
  'x'.repeat(5000), 'x'.repeat(40_000), 'x'.repeat(100_000), '\u0000'.repeat(1000), '字'.repeat(300), '😀'.repeat(200), '\ufdfa'.repeat(100),
  [], [1, 2, 3], {}, { a: 1 }, protoObject({ polluted: 1 }), { constructor: { prototype: { polluted: 1 } } },
  // eslint-disable-next-line no-template-curly-in-string -- template-injection probes, literal on purpose
  deepArrays(1500), '<script>alert(1)</script>', "' or 1=1 --", '../../etc/passwd', '%00', '${7*7}'
]
const EXTRA_KEYS = ['extra', '__proto__', '__proto__', 'constructor', 'prototype', 'user_id', 'userId', 'id', 'role', 'toString', '']

// ---- valid requests -----------------------------------------------------------------------------

/** Real things a valid request can name, refreshed before each operation. */
interface Ctx {
  tag: string; n: number
  userId: number; userName: string
  series: number[]; cases: number[]; designs: number[]; prizes: number[]; addresses: number[]
  /** drops of a series of their own: one on sale, one not started */
  drops: number[]
  /** created orders of the shopper; issued numbers not yet created; WeChat Pay orders */
  opIds: string[]; freshOpIds: string[]; wechatOrders: Array<{ opId: string; amountCents: number }>
  wechat: FakeWeChat
  /** An uploaded PDF (pdf2image) and the shopper's tasks (PDF, video, music clips) */
  pdfUrl: string; taskIds: string[]
}

const PHONE_PATTERN = '^1[3-9]\\d{9}$'

/** Strings that satisfy the contract's patterns (a valid request must reach the handler). */
const FOR_PATTERN: Record<string, (rng: Rng, ctx: Ctx) => string> = {
  [PHONE_PATTERN]: rng => `1${3 + rng.int(7)}${String(rng.int(1e9)).padStart(9, '0')}`,
  // the helper tasks: the uploaded PDF, the shopper's tasks (now and then unknown ones)
  [PDF_URL_PATTERN]: (rng, ctx) => rng.next() < 0.8 ? ctx.pdfUrl : `/media/u/${'f'.repeat(64)}.pdf`,
  '^[A-Za-z0-9_-]{16,64}$': (rng, ctx) => ctx.taskIds.length && rng.next() < 0.85 ? rng.pick(ctx.taskIds) : `fuzz-task-${ctx.tag}-${++ctx.n}-xxxx`,
  '^[A-Za-z0-9_-]{8,64}$': (_rng, ctx) => `fuzz-${ctx.tag}-${++ctx.n}`,
  '^[A-Za-z0-9]{8,32}$': (rng, ctx) => ctx.opIds.length ? rng.pick(ctx.opIds) : 'BB20260301000000ABCDEF012345',
  '^\\d{4}-\\d{2}-\\d{2}$': rng => `${1950 + rng.int(50)}-0${1 + rng.int(9)}-1${rng.int(9)}`,
  '^[A-Za-z0-9_-]+$': (_rng, ctx) => wechatCode(ctx),
  '^/?[A-Za-z0-9_/-]*$': rng => rng.pick(['pages/index/index', '/pagesA/home/index', '']),
  "^[A-Za-z0-9_.~!*'();:@&=+$,/?%#-]*$": rng => rng.pick(['a=1&b=2', 'id=7', '']),
  // an authenticity code (prizeVerify), a carrier code and a tracking number (deliver, and the
  // parcels the fake Kuaidi100 knows for expressInquiry / expressMap)
  '^[A-Za-z0-9_-]{16,32}$': (_rng, ctx) => `fuzzcode-${ctx.tag}-${++ctx.n}`.padEnd(16, 'x').slice(0, 32),
  '^[a-z0-9]{2,32}$': rng => rng.pick(['shunfeng', 'yuantong', 'ems', 'zhongtong']),
  '^[A-Za-z0-9-]{4,40}$': (rng, ctx) => rng.next() < 0.5 ? `SF${ctx.n++}${rng.int(1e6)}` : rng.pick(['75312345678901', 'SF1234567890123']),
  // a client seed of the fair draw
  '^[A-Za-z0-9_-]{1,64}$': (_rng, ctx) => `seed-${ctx.tag}-${++ctx.n}`,
  // the phone (or its last four digits) shunfeng's tracking needs
  [EXPRESS_LIMITS.phonePattern]: rng => rng.pick(['8000', '13800138000']),
  // train tickets and flights: stations and airports the fake Juhe knows (and one it does not), days
  // ahead of the fuzz's clock (2026-03-01, moving about a day in a run) and one in the past
  [TRAVEL_LIMITS.stationPattern]: rng => rng.pick(['北京', '上海', '北京南', '上海虹桥', '拉萨']),
  [TRAVEL_LIMITS.airportPattern]: rng => rng.pick(['BJS', 'SHA', 'PEK', 'CAN', 'XXX']),
  [TRAVEL_LIMITS.datePattern]: rng => rng.pick(['2026-03-03', '2026-03-06', '2026-03-10', '2026-06-01', '2025-01-01']),
  // a product of the price comparison (the fake knows those it handed out; others have no offers)
  [PRICE_LIMITS.spuIdPattern]: rng => String(100000000 + rng.int(90000000)),
  // an audit log entity (the operators' audit filter)
  [OPERATOR_LIMITS.auditEntityPattern]: rng => rng.pick(['series', 'recipe', 'setting', 'user'])
}

/** A point near the places the map fakes know (Beijing), now and then somewhere they do not. */
const nearBeijing = (rng: Rng) => rng.next() < 0.9
  ? { latitude: 39.98 + rng.int(100) / 10000, longitude: 116.3 + rng.int(100) / 10000 }
  : { latitude: -33.86, longitude: 151.2 }

/** A code the fake WeChat knows (once), for the mini-program and the web OAuth logins. */
function wechatCode (ctx: Ctx): string {
  const code = `wx${ctx.tag}${++ctx.n}`
  ctx.wechat.miniCodes.set(code, { openid: `o_fuzz_${code}` })
  ctx.wechat.oauthCodes.set(code, { openid: `o_fuzz_${code}`, scope: 'snsapi_base' })
  return code
}

/** A value for a field by its name, so that a valid request names something that exists. */
function hint (name: string | undefined, s: Schema, rng: Rng, ctx: Ctx): unknown {
  const from = (xs: readonly unknown[]) => xs.length && rng.next() < 0.85 ? rng.pick(xs) : undefined
  switch (name) {
    case 'seriesId': case 'series_id': return from(ctx.series)
    case 'caseId': case 'case_id': return from(ctx.cases)
    case 'dropId': return from(ctx.drops)
    case 'prizeId': return from(ctx.prizes)
    case 'design_id': return from(ctx.designs)
    case 'opId': return rng.next() < 0.3 && ctx.freshOpIds.length ? ctx.freshOpIds.pop() : from(ctx.opIds)
    case 'userId': return rng.next() < 0.9 ? ctx.userId : ctx.userId + 1
    case 'slots': return rng.next() < 0.8 ? [1 + rng.int(4)] : [1 + rng.int(2), 3 + rng.int(2)]
    case 'user_name': return rng.next() < 0.5 ? ctx.userName : `fz_${ctx.tag}_${++ctx.n}`
    case 'password': return 'secret-pw' // makeUser's, so that some password logins succeed
    case 'productId': return TOPUP_PRODUCT_ID
    case 'amountCents': return rng.pick([100, 500, 1000])
    case 'redirect_uri': return 'https://shop.example.com/pagesA/home/index'
    // pic2word: a picture by its absolute URL
    case 'file': if (s.pattern?.startsWith('^https?:')) return `https://shop.example.com/media/u/${'ab'.repeat(32)}.png`
      break
    // /common/mail/send: a shopper may write to the shop's mailbox only
    case 'mail': if (rng.next() < 0.7) return MAILBOX
      break
    case 'code': if ((s.maxLength ?? 99) <= 6) return '123456'
      break
    // the map and parcel calls: points, places and addresses the fakes know
    case 'location': { const p = nearBeijing(rng); return `${p.latitude},${p.longitude}` }
    case 'boundary': { const p = nearBeijing(rng); return `nearby(${p.latitude},${p.longitude},${rng.pick([1000, 5000])})` }
    case 'keyword': return rng.pick(['地铁', '书', '大学'])
    case 'address': return rng.pick(['北京市海淀区北四环西路66号', '北京市朝阳区阜通东大街6号', '火星基地'])
    case 'ip': return rng.pick(['183.62.57.1', '101.6.6.6', '8.8.8.8'])
    case 'latitude': return 39.99
    case 'longitude': return 116.48
    case 'from': case 'to': case 'origin': case 'destination':
      // a language (textTransform) is an enum: the generic value of the schema; a station or an airport
      // (queryTickets, queryFlight) comes from its pattern
      if (s.enum || s.anyOf || (s.pattern && FOR_PATTERN[s.pattern])) break
      return s.type === 'object' ? nearBeijing(rng) : rng.pick(['广东省深圳市', '北京市海淀区'])
  }
  if (s.pattern && FOR_PATTERN[s.pattern]) return FOR_PATTERN[s.pattern](rng, ctx)
  // a few addresses only: each mail code sent costs an SMTP delivery (~150 ms), the per-address budget refuses the rest
  if (s.format === 'email') return `fz${ctx.tag}${rng.int(4)}@example.test`
  return undefined
}

function valid (s: Schema, rng: Rng, ctx: Ctx, name?: string): unknown {
  const hinted = hint(name, s, rng, ctx)
  if (hinted !== undefined) return hinted
  if (s.const !== undefined) return s.const
  if (s.enum) return rng.pick(s.enum)
  if (s.anyOf) return valid(rng.pick(s.anyOf), rng, ctx, name)
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        if ((s.required ?? []).includes(k) || rng.next() < 0.5) put(out, k, valid(v, rng, ctx, k))
      }
      // the contract's one cross-field rule (a purchase names slots or the whole case): keep one of them
      if ('caseId' in out && 'acknowledged' in out) {
        if (out.slots === undefined && out.wholeCase === undefined) out.slots = hint('slots', {}, rng, ctx)
        else if (out.slots !== undefined && out.wholeCase !== undefined) delete out[rng.next() < 0.8 ? 'wholeCase' : 'slots']
      }
      return out
    }
    // a tuple (2020-12): one value for each of its items
    case 'array': return s.prefixItems ? s.prefixItems.map(item => valid(item, rng, ctx)) : Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => valid(s.items || {}, rng, ctx))
    case 'integer':
    case 'number': {
      const min = s.minimum ?? 0
      const max = Math.min(s.maximum ?? 1000, min + 20)
      return min + rng.int(Math.max(1, max - min + 1))
    }
    case 'boolean': return rng.next() < 0.5
    case 'null': return null
    case 'string': {
      if (s.format === 'date-time') return '2026-03-01T08:00:00.000Z'
      const len = Math.max(s.minLength ?? 1, Math.min(s.maxLength ?? 12, 12))
      return `fuzz text ${++ctx.n} abcdefghij`.slice(0, len).padEnd(len, 'x')
    }
    default: return {} // an unknown schema (the table API's param) takes an object
  }
}

/**
 * What the schemas cannot say (which optional fields go together, which channel this shop offers, an
 * order number not yet used): half of the valid requests of these operations follow it, so that they
 * also succeed. `undefined` removes a field.
 */
const TOGETHER: Record<string, (rng: Rng, ctx: Ctx) => Record<string, unknown>> = {
  'POST /dev-api/login/register': (_rng, ctx) => ({ user_name: `fz_${ctx.tag}_${++ctx.n}`, password: 'secret-pw', phone: undefined, email: undefined, code: undefined }),
  'POST /dev-api/login/passwd': (_rng, ctx) => ({ user_name: ctx.userName, password: 'secret-pw', phone: undefined, email: undefined }),
  'POST /dev-api/generalOrder/create': (rng, ctx) => ({ channel: rng.pick(['sandbox', 'sandbox', 'wechat_jsapi', 'wechat_h5']), opId: ctx.freshOpIds.pop() ?? ctx.opIds[0] })
}

function together (key: string, body: unknown, rng: Rng, ctx: Ctx): unknown {
  const rule = TOGETHER[key]
  if (!rule || rng.next() < 0.5 || !isPlainObject(body)) return body
  const out = copyObject(body)
  for (const [k, v] of Object.entries(rule(rng, ctx))) {
    if (v === undefined) delete out[k]
    else out[k] = v
  }
  return out
}

// ---- the table API: its param by method (types/data.ts), from the row schemas of the document ------

const WHERE_FIELDS = ['status', 'series_id', 'design_id', 'rarity', 'is_default']
const SORT_FIELDS = ['id', 'created_at', 'updated_at', 'price_cents', 'sort', 'reference_value_cents']
const TABLE_GUESSES = ['users', 'sessions', 'wallets', 'ledger_entries', 'case_slots', 'codes', 'Series', 'series ', 'series;--', '__proto__', 'constructor', 'toString', '']
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', properties, required })

/** A valid param of (table, method) and the schema it follows (for the field cases and mutations). */
function tableParam (doc: Doc, table: string, method: string, rng: Rng, ctx: Ctx): { body: Record<string, unknown>; schema: Schema } {
  const props = doc.components?.schemas?.[`DataRow_${table}`]?.properties ?? { id: { type: 'integer', minimum: 1 } }
  const ids: Record<string, number[]> = { series: ctx.series, designs: ctx.designs, cases: ctx.cases, addresses: ctx.addresses, prizes: ctx.prizes }
  const idOf = () => (ids[table]?.length && rng.next() < 0.8 ? rng.pick(ids[table]) : 1 + rng.int(5))
  const pick = (names: string[]) => Object.fromEntries(names.filter(n => props[n]).map(n => [n, props[n]]))
  const writable = Object.keys(props).filter(k => !['id', 'created_at', 'updated_at'].includes(k))
  const fill = (names: string[], out: Record<string, unknown>) => { for (const n of names) out[n] = valid(props[n], rng, ctx, n); return out }
  switch (method) {
    case 'get':
    case 'delete':
      return { body: { id: idOf() }, schema: obj({ id: props.id }, ['id']) }
    case 'add':
      return { body: fill(writable.filter(k => k !== 'is_default' || rng.next() < 0.5), {}), schema: obj(pick(writable), writable.filter(k => k !== 'is_default')) }
    case 'update':
      return { body: fill(rng.shuffle([...writable]).slice(0, 1 + rng.int(2)), { id: idOf() }), schema: obj({ id: props.id, ...pick(writable) }, ['id']) }
    default: { // list, page, export
      const whereProps = pick(WHERE_FIELDS)
      const sortable = SORT_FIELDS.filter(f => props[f])
      const extra: Record<string, Schema> = method === 'list' ? { limit: { type: 'integer', minimum: 1, maximum: 100 } }
        : method === 'page' ? { page: { type: 'integer', minimum: 1, maximum: 100000 }, size: { type: 'integer', minimum: 1, maximum: 100 } } : {}
      const schema = obj({ where: obj(whereProps), orderBy: { enum: sortable }, order: { enum: ['asc', 'desc'] }, ...extra }, method === 'page' ? ['page', 'size'] : [])
      const body: Record<string, unknown> = {}
      const whereNames = Object.keys(whereProps)
      if (whereNames.length && rng.next() < 0.5) body.where = fill([rng.pick(whereNames)], {})
      if (sortable.length && rng.next() < 0.5) body.orderBy = rng.pick(sortable)
      if (rng.next() < 0.5) body.order = rng.pick(['asc', 'desc'])
      for (const [k, s] of Object.entries(extra)) if (method === 'page' || rng.next() < 0.5) body[k] = valid(s, rng, ctx, k)
      return { body, schema }
    }
  }
}

// ---- requests ------------------------------------------------------------------------------------

interface Req {
  category: string
  method: string
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
  /** the operation's own method and path (its documented answer applies) */
  exact: boolean
  /** what the payload does not show (a notification's decrypted transaction) */
  note?: string
}

/** Builds one request when it is sent (so that it takes fresh keys, tokens and orders). */
type Make = () => Promise<Req>

interface Base { query: Array<[string, string]>; body: unknown; schema: Schema | null }

/** Percent-encoding of any string, lone surrogates as their (invalid) three UTF-8-style bytes. */
function pct (s: string): string {
  let out = ''
  for (const ch of s) {
    if (/^[A-Za-z0-9_.~-]$/.test(ch)) { out += ch; continue }
    const cp = ch.codePointAt(0) as number
    const bytes = cp < 0x80 ? [cp]
      : cp < 0x800 ? [0xc0 | cp >> 6, 0x80 | (cp & 63)]
        : cp < 0x10000 ? [0xe0 | cp >> 12, 0x80 | (cp >> 6 & 63), 0x80 | (cp & 63)]
          : [0xf0 | cp >> 18, 0x80 | (cp >> 12 & 63), 0x80 | (cp >> 6 & 63), 0x80 | (cp & 63)]
    for (const b of bytes) out += '%' + b.toString(16).toUpperCase().padStart(2, '0')
  }
  return out
}
const withQuery = (url: string, query: Array<[string, string]>, raw?: string) => {
  const parts = query.map(([k, v]) => `${pct(k)}=${pct(v)}`)
  if (raw !== undefined) parts.push(raw)
  return parts.length ? `${url}?${parts.join('&')}` : url
}
const asQueryValue = (v: unknown) => typeof v === 'string' ? v : v instanceof Raw ? v.text.slice(0, 2000) : encode(v)

const RAW_QUERIES = ['%ZZ', 'a=%ZZ', '=1', '&&&', 'a', '__proto__[admin]=1', 'constructor[prototype][admin]=1', 'a[]=1&a[]=2', 'a[b]=1',
  '%00=%00', 'x=' + 'y'.repeat(10000), 'a=1&a=2&a=3', '%ED%A0%80=1', 'a=%FF%FE', 'page=1e400', 'toString=1']

/** Whole requests that are wrong before any schema applies (the op's valid body in the wrong dress too). */
function rawPayloads (validBody: unknown): Array<[string | undefined, string | Buffer]> {
  const validText = encode(validBody)
  const form = isPlainObject(validBody) ? Object.entries(validBody).map(([k, v]) => `${pct(k)}=${pct(asQueryValue(v))}`).join('&') : 'a=1'
  const json = 'application/json'
  return [
    [json, '{"a":'], [json, ''], [json, ' '], [json, 'null'], [json, 'true'], [json, '0'], [json, '"x"'], [json, '[]'],
    [json, 'NaN'], [json, '{"page":NaN}'], [json, '{"a":1,}'], [json, "{'a':1}"], [json, validText + 'garbage'], [json, validText + validText],
    [json, '\ufeff' + validText], [json, '\u0000'], [json, '{"a":"\u0000\u0001"}'], [json, '["\\ud800", "\\udfff\\ud800"]'],
    [json, '['.repeat(20000) + ']'.repeat(20000)], [json, deepObjects(10000).text], [json, deepMixed(8000).text], [json, '['.repeat(30000)],
    [json, '{"__proto__":{"admin":true}}'], [json, '{"constructor":{"prototype":{"admin":true}}}'], [json, '{"a":{"__proto__":{"admin":true}}}'],
    [json, JSON.stringify({ s: 'x'.repeat(70_000) })], [json, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d])],
    [json, '{"page":1e400,"size":-0}'], [json, '{"a":1}'.padStart(5000, ' ')],
    ['application/json; charset=utf-16', validText], ['application/json; charset=latin1', validText], ['APPLICATION/JSON', validText],
    ['application/json;', validText], ['application/json; boundary=x', validText], ['application/vnd.api+json', validText],
    ['application/json-patch+json', '[]'], ['text/plain', validText], ['text/plain', 'hello'], ['text/html', '<a>'],
    ['application/x-www-form-urlencoded', form], ['application/x-www-form-urlencoded', '%ZZ=%ZZ&a'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--'], ['multipart/form-data', 'no boundary'],
    ['application/xml', '<a/>'], ['application/octet-stream', Buffer.from([0, 1, 2, 255])], ['*/*', validText], ['', validText], [undefined, validText]
  ]
}

/** Header variants (a broken or odd bearer token, language and others); `token` is a live one. */
function headerVariants (token: string): Array<Record<string, string>> {
  return [
    { authorization: 'Bearer' }, { authorization: 'Bearer ' }, { authorization: `bearer ${token}` }, { authorization: `BEARER ${token}` },
    { authorization: `Bearer  ${token}` }, { authorization: `Bearer ${token} ` }, { authorization: `Bearer ${token}x` },
    { authorization: `Bearer ${token.slice(0, -1)}` }, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: `Bearer ${'x'.repeat(8000)}` },
    { authorization: `Bearer ${token}, Bearer ${token}` }, { authorization: `Token ${token}` }, { authorization: 'Bearer é\u00ff' },
    { authorization: 'Bearer null' }, { authorization: token },
    { 'accept-language': 'xx' }, { 'accept-language': '*' }, { 'accept-language': 'zh-TW' }, { 'accept-language': 'en-US,en;q=0.9,zh;q=abc' },
    { 'accept-language': ';;;,,,q=' }, { 'accept-language': 'zh,'.repeat(2000) }, { 'accept-language': 'é' },
    { 'x-forwarded-for': '1.2.3.4, 5.6.7.8' }, { 'x-forwarded-for': 'not an ip' }, { 'user-agent': 'x'.repeat(8000) },
    { cookie: 'a=%ZZ; b' }, { app_id: '\u00ff'.repeat(100), app_type: '', x_env: 'prod' }
  ]
}

/** 1-3 changes anywhere in a value (nested fields too), each one of many kinds. */
function mutateDeep (root: unknown, rng: Rng): unknown {
  const DELETE = Symbol('delete')
  const pathsOf = (v: unknown, prefix: Array<string | number>, out: Array<Array<string | number>>) => {
    if (prefix.length > 4) return out
    if (Array.isArray(v)) v.forEach((x, i) => { out.push([...prefix, i]); pathsOf(x, [...prefix, i], out) })
    else if (isPlainObject(v)) for (const k of Object.keys(v)) { out.push([...prefix, k]); pathsOf(v[k], [...prefix, k], out) }
    return out
  }
  const updateAt = (node: unknown, p: Array<string | number>, f: (old: unknown) => unknown): unknown => {
    if (!p.length) return f(node)
    const [k, ...rest] = p
    if (Array.isArray(node)) {
      const copy = node.slice()
      const v = updateAt(copy[k as number], rest, f)
      if (v === DELETE) copy.splice(k as number, 1)
      else copy[k as number] = v
      return copy
    }
    const copy = copyObject(node as Record<string, unknown>)
    const v = updateAt(copy[k], rest, f)
    if (v === DELETE) delete copy[k]
    else put(copy, String(k), v)
    return copy
  }
  let out = root
  for (let m = 1 + rng.int(3); m > 0; m--) {
    const paths = pathsOf(out, [], [])
    if (!paths.length || rng.next() < 0.1) {
      out = isPlainObject(out) ? put(copyObject(out), rng.pick(EXTRA_KEYS), rng.pick(HOSTILE)) : rng.pick(HOSTILE)
      continue
    }
    out = updateAt(out, rng.pick(paths), old => {
      switch (rng.int(9)) {
        case 0: case 1: return rng.pick(HOSTILE)
        case 2: return DELETE
        case 3: return typeof old === 'number' ? rng.pick(NUMBER_EDGES({})) : typeof old === 'string' ? rng.pick(STRING_EDGES({}, old)) : rng.pick(HOSTILE)
        case 4: return [old]
        case 5: return { value: old }
        case 6: {
          // a random depth of each kind, one of them sent: made for this request only (a depth seldom
          // comes twice, so keeping them would only hold memory), and only the one that is sent
          const depths = [1000 + rng.int(20000), 1000 + rng.int(7000), 1000 + rng.int(8000)]
          const kind = rng.int(3)
          return new Raw([arraysText, objectsText, mixedText][kind](depths[kind]))
        }
        case 7: return protoObject(old)
        default: return rng.pick(wrongTypes(old))
      }
    })
  }
  return out
}

const WHOLE = (base: unknown): unknown[] => [null, [], [base], 'string', 42, true, {}, deepArrays(3000), deepObjects(1500),
  protoObject({ admin: true }), { constructor: { prototype: { admin: true } } }, [[[[base]]]], { body: base }]

/** The body with one key written twice (JSON.parse keeps the last). */
function duplicateKey (body: Record<string, unknown>, key: string, value: unknown, first: boolean): Raw {
  const text = encode(body)
  const extra = `${JSON.stringify(key)}:${encode(value)}`
  const sep = text.length > 2 ? ',' : ''
  return new Raw(first ? `{${extra}${sep}${text.slice(1)}` : `${text.slice(0, -1)}${sep}${extra}}`)
}

// ---- the checks ----------------------------------------------------------------------------------

const preview = (payload: string | Buffer | undefined): string => {
  if (payload === undefined) return '(none)'
  if (Buffer.isBuffer(payload)) return `bytes ${payload.subarray(0, 64).toString('hex')}${payload.length > 64 ? `… (${payload.length} bytes)` : ''}`
  return payload.length > 600 ? `${JSON.stringify(payload.slice(0, 400))}… (${payload.length} chars) …${JSON.stringify(payload.slice(-100))}` : JSON.stringify(payload)
}

/** What is wrong with an answer, or null. */
function answerProblem (req: Req, op: Op, res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return `HTTP ${res.statusCode}`
  const pathOnly = req.url.split('?')[0]
  const contentType = String(res.headers['content-type'] ?? '')
  let body: Record<string, unknown> | null = null
  try {
    const parsed: unknown = JSON.parse(res.body)
    body = isPlainObject(parsed) ? parsed : null
  } catch { body = null }
  if (req.method === 'POST' && pathOnly === NOTIFY_PATH) {
    // WeChat Pay's shape (server/src/routes/orders.ts): 204 without a body, or 4xx {code: 'FAIL', message}
    if (res.statusCode === 204) return res.body === '' ? null : 'a 204 with a body'
    if (res.statusCode < 400) return `HTTP ${res.statusCode} (WeChat Pay expects 204 or a 4xx/5xx failure)`
    if (!body || body.code !== 'FAIL' || typeof body.message !== 'string' || !body.message) return 'not WeChat Pay\'s {code: "FAIL", message}'
    return null
  }
  if (contentType.includes('spreadsheetml')) {
    if (!op.xlsx || !req.exact) return 'an xlsx answer outside a documented xlsx answer'
    return res.statusCode === 200 && res.rawPayload.subarray(0, 2).toString('latin1') === 'PK' ? null : 'an xlsx answer that is not a zip file'
  }
  // pages of the H5 app are not API paths: only a path under the API answers HTTP 200
  if (pathOnly.startsWith(`${PREFIX}/`) && res.statusCode !== 200) return `HTTP ${res.statusCode} on an API path`
  if (!contentType.startsWith('application/json')) return `content type ${contentType}`
  if (!body || !Number.isInteger(body.code) || typeof body.message !== 'string' || !body.message || !('data' in body)) return 'not the envelope'
  if (!ENVELOPE_CODES.has(body.code as number)) return `code ${String(body.code)} is not one of the documented codes`
  if (body.code === 200 && req.exact && op.answer) {
    answersChecked++
    if (!op.answer(body)) return `the answer does not match the document: ${JSON.stringify(op.answer.errors?.slice(0, 3))}`
  }
  return null
}
/** Code-200 answers checked against the document. */
let answersChecked = 0

interface OperationStats { requests: number; reached: number; codes: Record<string, number>; ms: number }
interface Stats {
  operations: number; requests: number; fiveHundreds: number; outsideContract: number
  /** requests that got past authorization and validation (for the notification: past its signature check) */
  reached: number
  /** code-200 answers checked against the operation's documented answer */
  answersChecked: number
  categories: Record<string, number>
  /** milliseconds spent per category (making the request and its answer) */
  categoryMs: Record<string, number>
  perOperation: Record<string, OperationStats>
  seconds: number
}

describe.each(testDialects())('schema fuzz on %s', (dialect) => {
  let t: TestApp
  const errorLines: string[] = []
  let shopper: Shopper
  /** Whose sessions the session-ending calls of the security page may end (never the shared one). */
  let spare: Shopper
  let sessions: SessionService
  let sms: FakeSms
  let smtp: FakeSmtp
  let wechat: FakeWeChat
  let pay: FakeWeChatPay
  let tencent: tencentFake.FakeTencent
  let amap: amapFake.FakeAmap
  let kuaidi100: kuaidi100Fake.FakeKuaidi100
  let dify: Awaited<ReturnType<typeof difyFake.start>>
  let images: Awaited<ReturnType<typeof imagesFake.start>>
  let video: Awaited<ReturnType<typeof cogvideoFake.start>>
  let music: Awaited<ReturnType<typeof sunoFake.start>>
  let jd: Awaited<ReturnType<typeof jdFake.start>>
  let juhe: Awaited<ReturnType<typeof juheFake.start>>
  let feishu: feishuFake.FakeFeishu
  let wecom: wecomFake.FakeWeCom
  const ctx = { tag: dialect.slice(0, 2), n: 0, series: [], cases: [], drops: [], designs: [], prizes: [], addresses: [], opIds: [], freshOpIds: [], wechatOrders: [] } as unknown as Ctx
  const stats: Stats = { operations: 0, requests: 0, fiveHundreds: 0, outsideContract: 0, reached: 0, answersChecked: 0, categories: {}, categoryMs: {}, perOperation: {}, seconds: 0 }
  const problems: Array<Record<string, unknown>> = []
  const authRequired: string[] = []

  /** An order number issued to the shopper and created on a channel; answers the number. */
  const order = async (channel: 'sandbox' | 'wechat_jsapi' | 'wechat_h5', amountCents: number) => {
    const no = (await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: shopper.id }, { token: shopper.token })).body.data as string
    const created = await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: shopper.id, opId: no, amountCents, channel }, { token: shopper.token })
    if (created.body.code !== 200) throw new Error(`create: ${JSON.stringify(created.body)}`)
    return no
  }

  /** Before each operation: per-minute budgets afresh, the current cases, new orders to name. */
  const refresh = async (op: Op) => {
    t.clock.advance(61_000)
    ctx.cases = await Promise.all(ctx.series.map(id => currentCaseId(t.app, id)))
    ctx.prizes = (await t.db.selectFrom('prizes').select('id').where('user_id', '=', shopper.id).execute()).map(r => Number(r.id))
    ctx.addresses = (await t.db.selectFrom('addresses').select('id').where('user_id', '=', shopper.id).execute()).map(r => Number(r.id))
    ctx.freshOpIds = []
    for (let i = 0; i < (op.key.endsWith('/generalOrder/create') ? 20 : 2); i++) {
      ctx.freshOpIds.push((await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: shopper.id }, { token: shopper.token })).body.data as string)
    }
    ctx.opIds = [...ctx.opIds.slice(-3), await order('sandbox', 500)]
    if (op.kind === 'notify') {
      ctx.wechatOrders = []
      for (let i = 0; i < 6; i++) {
        const amountCents = 100 * (1 + i)
        ctx.wechatOrders.push({ opId: await order(i % 2 ? 'wechat_h5' : 'wechat_jsapi', amountCents), amountCents })
      }
    }
  }

  beforeAll(async () => {
    ;[sms, smtp, wechat, pay] = await Promise.all([startSms(), startSmtp(), startWeChat(), startWeChatPay()])
    ;[tencent, amap, kuaidi100, dify, images, jd, juhe] = await Promise.all([tencentFake.start({ sk: tencentFake.SK }), amapFake.start(), kuaidi100Fake.start(), difyFake.start(), imagesFake.start(), jdFake.start(), juheFake.start()])
    ;[video, music] = await Promise.all([cogvideoFake.start(), sunoFake.start()])
    // the operators' robots hear of complaints, shipments and withdrawals the fuzz makes
    ;[feishu, wecom] = await Promise.all([feishuFake.start(), wecomFake.start()])
    feishu.perMinute = wecom.perMinute = feishu.perSecond = 1_000_000
    t = await createTestApp(dialect, {
      // the server's own logger at info, every line written and redacted as in createTestApp; only the
      // error lines are kept (the 100,000 request lines of a run, held to the end, were work for the GC)
      build: { logger: loggerOptions('info', { write: (line: string) => { if (ERROR_LINE.test(line)) errorLines.push(line) } }) },
      fakes: { sms, smtp, wechat },
      env: {
        ...pay.env,
        TENCENT_MAP_KEY: tencentFake.KEY, TENCENT_MAP_SK: tencentFake.SK, TENCENT_MAP_API_BASE: tencent.url,
        AMAP_KEY: amapFake.KEY, AMAP_API_BASE: amap.url,
        KUAIDI100_CUSTOMER: kuaidi100Fake.CUSTOMER, KUAIDI100_KEY: kuaidi100Fake.KEY, KUAIDI100_API_BASE: kuaidi100.url,
        ...difyFake.envFor(dify),
        ...imagesFake.envFor(images),
        ...cogvideoFake.envFor(video), ...sunoFake.envFor(music),
        ...jdFake.envFor(jd),
        ...juheFake.envFor(juhe),
        ...feishu.env, ...wecom.env, COMPLAINT_MAILBOX: MAILBOX
      }
    })
    pay.now = t.clock.now
    feishu.now = t.clock.now
    jd.now = t.clock.now
    ctx.wechat = wechat
    sessions = new SessionService(t.db, t.clock.now)
    // a large case and a small one (4 slots), so that purchases also sell out and open new cases
    ctx.series = [
      await makeSeries(t.db, t.clock, { priceCents: 100 }),
      await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, priceCents: 100 })
    ]
    ctx.designs = (await t.db.selectFrom('designs').select('id').execute()).map(r => Number(r.id))
    shopper = await makeShopper(t.app, t.db, t.clock)
    spare = await makeShopper(t.app, t.db, t.clock)
    ctx.userId = shopper.id
    // drops on series of their own (a series that sells by drops makes no case on demand): one on sale, one not started
    ctx.drops = []
    for (const startsIn of [0, 30 * 86_400_000]) {
      const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: true, priceCents: 100, stock: 20 })
      ctx.drops.push((await createDrop(t.db, t.clock.now, shopper.id, { seriesId, cases: 5, hiddenCases: 2, startsAt: new Date(t.clock.now() + startsIn).toISOString() })).dropId)
    }
    ctx.userName = shopper.userName
    // the WeChat identity a JSAPI payment needs
    await t.db.insertInto('identities').values({ provider: 'weapp', subject: 'oFuzzShopper0000000000000000', user_id: shopper.id, created_at: new Date(t.clock.now()).toISOString() }).execute()
    ctx.opIds = [await topUp(t.app, shopper, 200000)]
    const bought = await buy(t.app, shopper, { caseId: await currentCaseId(t.app, ctx.series[0]), slots: [1, 2] })
    if (bought.body.code !== 200) throw new Error(`buy: ${JSON.stringify(bought.body)}`)
    for (const name of ['Home', 'Work']) {
      const added = await post(t.app, '/api/data/invoke?table=addresses&method=add', { name, phone: '13800138000', region: 'Shanghai', detail: '1 Fuzz Road' }, { token: shopper.token })
      if (added.body.code !== 200) throw new Error(`address: ${JSON.stringify(added.body)}`)
    }
    // a PDF in the shop's uploads, and one task of each kind of the shopper's, for the task calls to name
    const pdf = await PDFDocument.create()
    pdf.addPage([200, 100]).drawText('Fuzz catalogue', { x: 10, y: 40, size: 12 })
    const pdfBytes = Buffer.from(await pdf.save())
    const pdfSha = createHash('sha256').update(pdfBytes).digest('hex')
    await t.db.insertInto('media').values({ sha256: pdfSha, content_type: 'application/pdf', ext: 'pdf', data: pdfBytes, size: pdfBytes.length, width: 0, height: 0, uploaded_by: null, created_at: new Date(t.clock.now()).toISOString() }).execute()
    ctx.pdfUrl = `/media/u/${pdfSha}.pdf`
    ctx.taskIds = [
      (await post(t.app, '/api/pdf2image', { url: ctx.pdfUrl }, { token: shopper.token })).body.data.taskId,
      (await post(t.app, '/api/text2video', { text: 'fuzz promo' }, { token: shopper.token })).body.data.id,
      ...(await post(t.app, '/api/text2music', { prompt: 'fuzz jingle' }, { token: shopper.token })).body.data.item_ids
    ]
    for (const lang of ['en', 'zh-CN']) authRequired.push((await post(t.app, '/api/walletBalance', {}, { lang })).body.message)
  }, 60000)

  afterAll(async () => {
    await t?.close()
    await Promise.all([sms?.close(), smtp?.close(), wechat?.close(), pay?.close(), tencent?.close(), amap?.close(), kuaidi100?.close(), dify?.close(), images?.close(), video?.close(), music?.close(), jd?.close(), juhe?.close(), feishu?.close(), wecom?.close()])
    const file = path.resolve(__dirname, '../../test-results/fuzz-summary.json')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const all = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
    fs.writeFileSync(file, JSON.stringify({ ...all, [dialect]: stats }, null, 2))
    const counts = Object.values(stats.perOperation).map(o => o.requests)
    console.log(`fuzz on ${dialect}: ${stats.operations} operations, ${stats.requests} requests (${Math.min(...counts)}-${Math.max(...counts)} per operation, ` +
      `${stats.reached} past validation, ${stats.answersChecked} successes checked against the document), ${stats.fiveHundreds} answers 5xx, ${stats.outsideContract} outside the contract, ${stats.seconds.toFixed(1)} s`)
  })

  /** Reads the operations of the document. */
  const operationsOf = (doc: Doc): Op[] => {
    const ajv = new Ajv2020({ strict: false, allErrors: false })
    addFormats(ajv)
    ajv.addFormat('binary', true)
    const ops: Op[] = []
    // the generic call's path parameter: one operation per allow-listed method (hostile names: methods.test.ts)
    const paths = Object.entries(doc.paths).flatMap(([url, methods]) =>
      url.includes('{method_name}') ? METHOD_NAMES.map(name => [url.replace('{method_name}', name), methods] as const) : [[url, methods] as const])
    for (const [url, methods] of paths) {
      for (const [method, d] of Object.entries(methods)) {
        const key = `${method.toUpperCase()} ${url}`
        const security = d.security ?? []
        const answerSchema = d.responses?.['200']?.content?.['application/json']?.schema
        ops.push({
          key,
          method: method.toUpperCase() as 'GET' | 'POST',
          url,
          auth: security.length === 0 ? 'none' : security.some(s => Object.keys(s).length === 0) ? 'optional' : 'required',
          body: d.requestBody?.content['application/json']?.schema ?? null,
          query: (d.parameters ?? []).filter(p => p.in === 'query'),
          kind: url === NOTIFY_PATH ? 'notify' : url.startsWith(`${PREFIX}/api/data/`) ? 'table' : 'plain',
          xlsx: Object.keys(d.responses?.['200']?.content ?? {}).some(type => type.includes('spreadsheetml')),
          file: Object.keys(d.requestBody?.content['multipart/form-data']?.schema?.properties ?? {})[0],
          answer: answerSchema ? ajv.compile(answerSchema) : undefined
        })
      }
    }
    return ops
  }

  /** The cases of one operation: closures, so that each takes fresh state (keys, tokens, orders) when sent. */
  const casesOf = (op: Op, doc: Doc, rng: Rng): Make[] => {
    const cases: Make[] = []
    const isLogout = op.url.endsWith('/logout')
    // calls of the security page that end sessions (all of them, the others, one by id, the others
    // after a password change, or the account itself) would end the shared one: they act for another user, with a fresh session each time
    const endsSessions = /\/api\/security\/(logoutAll|sessionsEndOthers|sessionEnd|password|deleteAccount)$/.test(op.url)
    // logging out with the shared token would end the session the other requests use: a throwaway one
    const liveToken = async () => endsSessions
      ? sessions.create(spare.id, { ip: null, userAgent: null })
      : isLogout ? sessions.create(shopper.id, { ip: null, userAgent: null }) : shopper.token
    const tokenFor = (share: number) => op.auth !== 'none' && rng.next() < share
    const base = (): Base => {
      if (op.kind === 'table') {
        const table = rng.next() < 0.92 ? rng.pick(Object.keys(doc.components?.schemas ?? {}).filter(k => k.startsWith('DataRow_')).map(k => k.slice(8))) : rng.pick(TABLE_GUESSES)
        const methodParam = op.query.find(p => p.name === 'method')
        const method = methodParam ? (table === 'addresses' && rng.next() < 0.6 ? rng.pick(['add', 'update', 'delete', 'get']) : rng.pick(['get', 'list', 'page', 'list', 'page', 'add'])) : 'export'
        const { body, schema } = tableParam(doc, table, method, rng, ctx)
        return { query: methodParam ? [['table', table], ['method', method]] : [['table', table]], body, schema }
      }
      const query: Array<[string, string]> = []
      for (const p of op.query) if (p.required || rng.next() < 0.6) query.push([p.name, asQueryValue(valid(p.schema, rng, ctx, p.name))])
      if (op.method === 'GET' || !op.body) return { query, body: undefined, schema: null }
      return { query, body: together(op.key, valid(op.body, rng, ctx), rng, ctx), schema: op.body }
    }
    const request = (category: string, b: { query: Array<[string, string]>; body?: unknown; rawQuery?: string }, o: { token?: boolean; headers?: Record<string, string>; contentType?: string | null; payload?: string | Buffer; method?: string; url?: string } = {}) =>
      async (): Promise<Req> => {
        const headers: Record<string, string> = {}
        if (o.token) headers.authorization = `Bearer ${await liveToken()}`
        if (rng.next() < 0.15) headers['accept-language'] = 'zh-CN'
        Object.assign(headers, o.headers)
        let payload = o.payload
        if (payload === undefined && b.body !== undefined) payload = encode(b.body)
        if (payload !== undefined && o.contentType !== null) headers['content-type'] = o.contentType ?? 'application/json'
        const method = o.method ?? op.method
        const url = withQuery(o.url ?? op.url, b.query, b.rawQuery)
        return { category, method, url, headers, payload, exact: method === op.method && (o.url === undefined || o.url === op.url) }
      }
    const push = (make: () => Make | Promise<Make>) => { cases.push(async () => (await make())()) }

    // field: every field of the body, every edge (the table API: the fields of a random (table, method))
    if (op.method === 'POST') {
      const fieldCases = (schema: Schema): Array<[string, number | 'missing' | 'dup-first' | 'dup-last']> => {
        const out: Array<[string, number | 'missing' | 'dup-first' | 'dup-last']> = []
        for (const [name, s] of Object.entries(schema.properties ?? {})) {
          if (schema.required?.includes(name)) out.push([name, 'missing'])
          out.push([name, 'dup-first'], [name, 'dup-last'])
          edgesFor(s, null).forEach((_v, i) => out.push([name, i]))
        }
        return out
      }
      const applyField = (b: Base, name: string, which: number | 'missing' | 'dup-first' | 'dup-last'): Base => {
        const s = b.schema?.properties?.[name] ?? {}
        const body = isPlainObject(b.body) ? copyObject(b.body) : {}
        const sample = body[name] ?? valid(s, rng, ctx, name)
        const edges = edgesFor(s, sample)
        if (which === 'missing') delete body[name]
        else if (which === 'dup-first' || which === 'dup-last') {
          // the hostile value first (JSON.parse keeps the valid last one), or last
          return { ...b, body: duplicateKey(put(body, name, sample), name, rng.pick(edges), which === 'dup-first') }
        } else put(body, name, edges[which % edges.length])
        return { ...b, body }
      }
      if (op.kind === 'table') {
        for (let i = 0; i < 150; i++) {
          push(() => {
            const b = base()
            const fields = fieldCases(b.schema ?? {})
            const [name, which] = fields.length ? rng.pick(fields) : ['id', 0] as [string, number]
            return request('field', applyField(b, name, which), { token: tokenFor(0.8) })
          })
        }
      } else if (op.body) {
        for (const [name, which] of fieldCases(op.body)) push(() => request('field', applyField(base(), name, which), { token: tokenFor(0.9) }))
      }
    }
    // query: every query parameter, every edge, and raw query strings
    for (const p of op.query) {
      const values: Array<string | string[] | undefined> = [undefined, ...edgesFor(p.schema, 'abc').map(asQueryValue), ['1', '2'], ['', '']]
      for (const v of values) {
        push(() => {
          const b = base()
          const query = b.query.filter(([k]) => k !== p.name)
          if (Array.isArray(v)) for (const x of v) query.push([p.name, x])
          else if (v !== undefined) query.push([p.name, v])
          return request('query', { ...b, query }, { token: tokenFor(0.8) })
        })
      }
    }
    for (const raw of RAW_QUERIES) push(() => { const b = base(); return request('query', { ...b, rawQuery: raw }, { token: tokenFor(0.5) }) })
    // raw: bodies that are not what they claim
    if (op.method === 'POST') {
      const sample = base()
      for (const [contentType, payload] of rawPayloads(sample.body ?? {})) {
        push(() => request('raw', base(), { token: tokenFor(0.7), payload, contentType: contentType === undefined ? null : contentType }))
      }
      push(() => request('raw', base(), { token: tokenFor(0.7), headers: { 'content-encoding': 'gzip' } }))
      push(() => request('raw', base(), { token: tokenFor(0.7), headers: { 'content-encoding': 'br, identity' } }))
    } else {
      // a GET with a body (ignored, or refused; never a failure)
      for (const payload of ['{"a":1}', '['.repeat(20000) + ']'.repeat(20000), 'not json']) push(() => request('raw', base(), { token: tokenFor(0.5), payload }))
    }
    // file: a call that takes one (uploads, OCR) gets real images, broken ones and forms that lie
    if (op.file) {
      const field = op.file
      const png = makePng(40 + rng.int(40), 30 + rng.int(30), [rng.int(256), rng.int(256), rng.int(256)])
      const files: Array<[string, string, Buffer]> = [
        [field, 'image/png', png], [field, 'image/png', textPicture], [field, 'image/jpeg', textPicture],
        [field, 'image/png', png.subarray(0, 40)], [field, 'image/png', png.subarray(0, 8)], [field, 'image/png', Buffer.alloc(0)],
        [field, 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
        [field, 'image/png', Buffer.concat([png, Buffer.alloc(3 * 1024 * 1024)])], ['other', 'image/png', png], [field, 'text/plain', Buffer.from('hello')]
      ]
      for (const [name, type, bytes] of files) {
        push(() => { const form = multipartBody(name, 'f.png', type, bytes); return request('file', base(), { token: tokenFor(0.9), payload: form.body, contentType: form.contentType }) })
      }
      // two files, a form cut short
      push(() => {
        const a = multipartBody(field, 'a.png', 'image/png', png, 'FzB')
        const b = multipartBody(field, 'b.png', 'image/png', png, 'FzB')
        return request('file', base(), { token: tokenFor(0.9), payload: Buffer.concat([a.body.subarray(0, a.body.length - 8), b.body]), contentType: a.contentType })
      })
      push(() => { const f = multipartBody(field, 'a.png', 'image/png', png); return request('file', base(), { token: tokenFor(0.9), payload: f.body.subarray(0, f.body.length - 30), contentType: f.contentType }) })
    }
    // header
    push(async () => {
      const token = await liveToken()
      return request('header', base(), { headers: rng.pick(headerVariants(token)) })
    })
    for (let i = 0; i < headerVariants('x').length; i++) {
      push(async () => request('header', base(), { headers: headerVariants(await liveToken())[i] }))
    }
    // method and path
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', op.method === 'GET' ? 'POST' : 'GET']) {
      push(() => request('method', base(), { token: tokenFor(0.5), method }))
    }
    for (const url of [`${op.url}/`, op.url.toUpperCase(), `${op.url}%00`, `${op.url}/..`, op.url.replace(PREFIX, `${PREFIX}/`), `${op.url}.json`, `${op.url};a=1`]) {
      push(() => request('path', base(), { token: tokenFor(0.5), url }))
    }
    // random: valid, mutated anywhere, whole body replaced
    const fixed = cases.length
    while (cases.length < Math.max(PER_OPERATION, fixed + RANDOM_MIN)) {
      const roll = rng.next()
      if (roll < 0.2 || op.method === 'GET') {
        push(() => {
          const b = base()
          if (op.method === 'GET' && rng.next() < 0.5) return request('mutate', { ...b, query: mutateQuery(b.query, rng) }, { token: tokenFor(0.6) })
          return request('valid', b, { token: tokenFor(0.8) })
        })
      } else if (roll < 0.88) {
        push(() => { const b = base(); return request('mutate', { ...b, body: mutateDeep(b.body, rng) }, { token: tokenFor(0.7) }) })
      } else {
        push(() => { const b = base(); return request('whole', { ...b, body: rng.pick(WHOLE(b.body)) }, { token: tokenFor(0.6) }) })
      }
    }
    return rng.shuffle(cases)
  }

  /** The notification route: signed (by the fake's platform key) and broken in every part, and unsigned junk. */
  const notifyCases = (rng: Rng): Make[] => {
    const cases: Make[] = []
    const tx = (target?: { opId: string; amountCents: number }): Record<string, unknown> => {
      const o = target ?? rng.pick(ctx.wechatOrders)
      return {
        appid: PAY.appId, mchid: PAY.mchId, out_trade_no: o.opId, transaction_id: `4200${ctx.tag}${String(++ctx.n).padStart(20, '0')}`,
        trade_type: 'JSAPI', trade_state: 'SUCCESS', trade_state_desc: '支付成功', bank_type: 'CMC', attach: '',
        success_time: '2026-03-01T16:00:00+08:00', payer: { openid: 'oFuzzShopper0000000000000000' },
        amount: { total: o.amountCents, payer_total: o.amountCents, currency: 'CNY', payer_currency: 'CNY' }
      }
    }
    let plainSent = ''
    const envelope = (plain: string, o: { nonce?: string; key?: string; aad?: string; eventType?: string } = {}): Record<string, unknown> => {
      plainSent = plain
      const nonce = o.nonce ?? `n${String(++ctx.n).padStart(11, '0')}`
      return {
        id: `fz-${ctx.n}`, create_time: '2026-03-01T16:00:00+08:00', resource_type: 'encrypt-resource', event_type: o.eventType ?? 'TRANSACTION.SUCCESS', summary: '支付成功',
        resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext: encryptResource(o.key ?? PAY.apiV3Key, plain, nonce, o.aad ?? 'transaction'), associated_data: 'transaction', nonce }
      }
    }
    const signed = (category: string, body: unknown, headers: (h: Record<string, string>) => Record<string, string> = h => h) => async (): Promise<Req> => {
      const text = typeof body === 'string' ? body : encode(body)
      const note = typeof body === 'string' ? undefined : `the resource decrypts to ${preview(plainSent)}`
      return { category, method: 'POST', url: NOTIFY_PATH, headers: headers(pay.sign(text)), payload: text, exact: true, note }
    }
    const unsigned = (payload: string | Buffer, contentType?: string) => async (): Promise<Req> =>
      ({ category: 'notify-unsigned', method: 'POST', url: NOTIFY_PATH, headers: contentType === undefined ? {} : { 'content-type': contentType }, payload, exact: true })

    // real WeChat Pay orders: settled once, then again (ignored), a sandbox order (unknown to WeChat), other states and events
    for (let i = 0; i < 24; i++) {
      cases.push(async () => {
        const roll = rng.next()
        const t0 = tx(roll < 0.1 && ctx.opIds.length ? { opId: rng.pick(ctx.opIds), amountCents: 500 } : undefined)
        if (roll > 0.8) t0.trade_state = rng.pick(['NOTPAY', 'CLOSED', 'REFUND', 'PAYERROR'])
        if (roll > 0.7 && roll <= 0.8) (t0.amount as Record<string, unknown>).total = 1
        return signed('notify-valid', envelope(JSON.stringify(t0), { eventType: roll > 0.9 ? 'REFUND.SUCCESS' : undefined }))()
      })
    }
    // the decrypted transaction: every field, each wrong type and a sample of its edges
    const TX_FIELDS: Record<string, Schema> = {
      appid: { type: 'string' }, mchid: { type: 'string' }, out_trade_no: { type: 'string', maxLength: 32 }, transaction_id: { type: 'string', maxLength: 32 },
      trade_state: { enum: ['SUCCESS'] }, amount: { type: 'object' }, success_time: { type: 'string' }, payer: { type: 'object' }
    }
    for (const [name, s] of [...Object.entries(TX_FIELDS), ['amount.total', { type: 'integer', minimum: 1 }] as [string, Schema]]) {
      const edges = edgesFor(s, 'x')
      const chosen = [...wrongTypes('x').map((_v, i) => i), ...rng.shuffle(edges.map((_v, i) => i).slice(9)).slice(0, 7)]
      for (const which of [-1, ...chosen]) {
        cases.push(async () => {
          const t0 = tx()
          const [outer, inner] = name.split('.')
          const target = inner ? copyObject(t0[outer] as Record<string, unknown>) : t0
          const key = inner ?? outer
          if (which === -1) delete target[key]
          else put(target, key, edgesFor(s, target[key])[which])
          if (inner) t0[outer] = target
          return signed('notify-transaction', envelope(encode(t0)))()
        })
      }
    }
    for (const plain of ['null', '[]', '1', '"x"', 'true', '{}', 'not json', '{"out_trade_no":', '['.repeat(5000) + ']'.repeat(5000),
      deepObjects(3000).text, '\u0000', '{"__proto__":{"admin":true},"out_trade_no":"x"}', '{"constructor":{"prototype":{"admin":true}}}']) {
      cases.push(async () => signed('notify-transaction', envelope(plain))())
    }
    for (let i = 0; i < 12; i++) cases.push(async () => signed('notify-transaction', envelope(encode(mutateDeep(tx(), rng))))())
    // the resource's encryption
    cases.push(async () => signed('notify-crypto', envelope(JSON.stringify(tx()), { key: 'x'.repeat(32) }))())
    cases.push(async () => signed('notify-crypto', envelope(JSON.stringify(tx()), { aad: 'other' }))())
    for (const change of [{ ciphertext: 'AAAA' }, { ciphertext: '!!!!' }, { ciphertext: '' }, { ciphertext: 'x'.repeat(40_000) }, { nonce: 'short' }, { nonce: '' }, { nonce: 7 }, { nonce: 'x'.repeat(1000) }, { associated_data: 'other' }, { associated_data: 7 }, { algorithm: 'AES' }]) {
      cases.push(async () => {
        const e = envelope(JSON.stringify(tx()))
        return signed('notify-crypto', { ...e, resource: { ...(e.resource as Record<string, unknown>), ...change } })()
      })
    }
    // the notification body around the resource
    for (let i = 0; i < 40; i++) {
      cases.push(async () => {
        const e = envelope(JSON.stringify(tx()))
        return signed('notify-body', rng.next() < 0.8 ? mutateDeep(e, rng) : rng.pick(WHOLE(e)))()
      })
    }
    // the signature headers
    const headerChanges: Array<(h: Record<string, string>) => Record<string, string>> = [
      ...['wechatpay-serial', 'wechatpay-timestamp', 'wechatpay-nonce', 'wechatpay-signature'].map(k => (h: Record<string, string>) => { const c = { ...h }; delete c[k]; return c }),
      h => ({ ...h, 'wechatpay-serial': 'x' }), h => ({ ...h, 'wechatpay-serial': h['wechatpay-serial'].toLowerCase() }), h => ({ ...h, 'wechatpay-serial': '' }),
      ...['0', '-1', '1e3', 'abc', '9'.repeat(13), '99999999999', ' 1', String(Math.floor(t.clock.now() / 1000) - 301), String(Math.floor(t.clock.now() / 1000) + 301)]
        .map(v => (h: Record<string, string>) => ({ ...h, 'wechatpay-timestamp': v })),
      h => ({ ...h, 'wechatpay-nonce': '' }), h => ({ ...h, 'wechatpay-nonce': 'x'.repeat(10000) }),
      h => ({ ...h, 'wechatpay-signature': '' }), h => ({ ...h, 'wechatpay-signature': 'AAAA' }), h => ({ ...h, 'wechatpay-signature': '!!!!' }),
      h => ({ ...h, 'wechatpay-signature': 'x'.repeat(10000) }), h => ({ ...h, 'wechatpay-signature-type': 'HMAC' }), h => ({ ...h, 'content-type': 'text/plain' }),
      h => ({ ...h, 'content-type': 'application/x-www-form-urlencoded' }), h => { const c = { ...h }; delete c['content-type']; return c }
    ]
    for (const change of headerChanges) cases.push(async () => signed('notify-header', envelope(JSON.stringify(tx())), change)())
    cases.push(async () => {
      const body = JSON.stringify(envelope(JSON.stringify(tx())))
      return { category: 'notify-header', method: 'POST', url: NOTIFY_PATH, headers: pay.sign(body, { wrongKey: true }), payload: body, exact: true }
    })
    cases.push(async () => {
      const body = JSON.stringify(envelope(JSON.stringify(tx())))
      return { category: 'notify-header', method: 'POST', url: NOTIFY_PATH, headers: pay.sign(body.replace('支付成功', '支付成功 ')), payload: body, exact: true }
    })
    // unsigned junk, and junk signed
    for (const [contentType, payload] of rawPayloads({})) {
      cases.push(unsigned(payload, contentType))
      if (!Buffer.isBuffer(payload) && cases.length % 2) cases.push(signed('notify-body', payload, h => contentType === undefined ? h : { ...h, 'content-type': contentType }))
    }
    while (cases.length < PER_OPERATION) cases.push(async () => signed('notify-transaction', envelope(encode(mutateDeep(tx(), rng))))())
    return rng.shuffle(cases)
  }

  const mutateQuery = (query: Array<[string, string]>, rng: Rng): Array<[string, string]> => {
    const out = query.slice()
    const roll = rng.int(4)
    if (roll === 0 && out.length) {
      out.splice(rng.int(out.length), 1)
    } else if (roll === 1 && out.length) {
      const i = rng.int(out.length)
      out[i] = [out[i][0], asQueryValue(rng.pick(HOSTILE))]
    } else if (roll === 2 && out.length) {
      out.push([rng.pick(out)[0], asQueryValue(rng.pick(HOSTILE))])
    } else {
      out.push([rng.pick(EXTRA_KEYS), asQueryValue(rng.pick(HOSTILE))])
    }
    return out
  }

  const record = (op: Op, req: Req, res: LightMyRequestResponse) => {
    stats.requests++
    stats.categories[req.category] = (stats.categories[req.category] ?? 0) + 1
    const s = (stats.perOperation[op.key] ??= { requests: 0, reached: 0, codes: {}, ms: 0 })
    s.requests++
    let parsed: { code?: unknown; message?: unknown } | null = null
    try { parsed = JSON.parse(res.body) } catch { parsed = null }
    const xlsx = String(res.headers['content-type'] ?? '').includes('spreadsheetml')
    const code = xlsx ? 'xlsx' : parsed && (Number.isInteger(parsed.code) || parsed.code === 'FAIL') ? String(parsed.code) : `http ${res.statusCode}`
    s.codes[code] = (s.codes[code] ?? 0) + 1
    // FUZZ_DEBUG=<part of an operation> prints its answers
    if (process.env.FUZZ_DEBUG && op.key.includes(process.env.FUZZ_DEBUG)) console.log(op.key, req.category, code, res.body.slice(0, 200))
    const reached = op.kind === 'notify'
      ? req.exact && res.statusCode !== 401
      : req.exact && !['400', '429'].includes(code) && !(code === '401' && authRequired.includes(String(parsed?.message))) && !code.startsWith('http')
    if (reached) { s.reached++; stats.reached++ }
    if (res.statusCode >= 500) stats.fiveHundreds++
    const problem = answerProblem(req, op, res)
    if (problem) {
      if (res.statusCode < 500) stats.outsideContract++
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v.replace(shopper.token, '<shopper token>')]))
      problems.push({
        problem,
        operation: `${dialect} ${op.key}`,
        request: { category: req.category, method: req.method, url: req.url.length > 600 ? `${req.url.slice(0, 600)}… (${req.url.length} chars)` : req.url, headers, payload: preview(req.payload), ...(req.note ? { note: req.note } : {}) },
        answer: { status: res.statusCode, contentType: res.headers['content-type'], body: res.body.slice(0, 500) }
      })
    }
  }

  test(`every documented operation, at least ${PER_OPERATION} hostile requests each: no 5xx, always the envelope, no unhandled error`, async () => {
    const started = Date.now()
    const checkedBefore = answersChecked
    const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort()
    const doc = (await t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).json() as Doc
    const only = process.env.FUZZ_ONLY
    const ops = operationsOf(doc).filter(op => !only || op.key.includes(only))
    // the documented answers bind (an envelope without data is not one of them)
    for (const op of ops) if (op.answer) expect([op.key, op.answer({ code: 200, message: 'OK' })]).toEqual([op.key, false])
    for (const op of ops) {
      stats.operations++
      stats.perOperation[op.key] = { requests: 0, reached: 0, codes: {}, ms: 0 }
      const opStarted = Date.now()
      await refresh(op)
      const rng = prng(SEED ^ hashOf(op.key))
      const cases = op.kind === 'notify' ? notifyCases(rng) : casesOf(op, doc, rng)
      for (const make of cases) {
        const reqStarted = performance.now()
        const req = await make()
        const res = await t.app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload, remoteAddress: nextIp() })
        record(op, req, res)
        stats.categoryMs[req.category] = Math.round((stats.categoryMs[req.category] ?? 0) + performance.now() - reqStarted)
      }
      stats.perOperation[op.key].ms = Date.now() - opStarted
    }
    stats.seconds = (Date.now() - started) / 1000
    stats.answersChecked = answersChecked - checkedBefore
    if (!only) expect(Object.keys(doc.paths).length).toBeGreaterThanOrEqual(35)
    expect({ problems: problems.length, first: problems.slice(0, 15) }).toEqual({ problems: 0, first: [] })
    expect(stats.fiveHundreds).toBe(0)
    for (const [key, s] of Object.entries(stats.perOperation)) expect([key, s.requests >= PER_OPERATION]).toEqual([key, true])
    // the fuzz is worth something only if requests get past authorization and validation everywhere
    const neverReached = Object.entries(stats.perOperation).filter(([, s]) => s.reached === 0).map(([key]) => key)
    expect(neverReached).toEqual([])
    expect(stats.answersChecked).toBeGreaterThan(0)
    const errors = errorLines.filter(line => !OPERATOR_ALERTS.some(alert => line.includes(`"msg":"${alert}`)))
    expect(errors.slice(0, 5)).toEqual([])
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore)
    for (const key of ['polluted', 'admin']) expect((({}) as Record<string, unknown>)[key]).toBeUndefined()
    expect(await invariantViolations(t.db)).toEqual([])
  }, 900000)
})
