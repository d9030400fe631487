/**
 * How a refusal names a field: as the app's form labels it, in the request's language, and a money
 * limit in yuan as the app shows money (¥1,000.00), never the wire name or cents. envelopeOf passes
 * every failure's params through presentParams with the route's URL, so a schema error and every
 * `fail.field(...)` of a route with labels read alike. Each wire name is looked up on its route
 * first (the same name means different things on different routes: `name` of an address is the
 * recipient), then among the names that mean one thing everywhere; an unknown name stays as it is
 * (API-only fields a person never types).
 */
import type { Locale, MessageParams } from './messages'
import { formatYuan } from '../core/money'

interface Label { zh: string; en: string; money?: true }

/**
 * Names that mean one thing on every route, as the app's forms label them (src/locales, less a unit in
 * brackets). A name ending in `Cents` is money wherever it is.
 */
const EVERYWHERE: Record<string, Label> = {
  // the operator's shop settings (SettingsTab): the labels less their "(yuan)" unit
  shipFreeFromItems: { zh: '满几件包邮', en: 'Free shipping from (items)' },
  shipFeeCents: { zh: '不满时的运费', en: 'Shipping fee below that' },
  withdrawMinCents: { zh: '最低提现金额', en: 'Smallest withdrawal' },
  withdrawDailyMaxCents: { zh: '每人每天最多提现', en: 'Withdrawals per user per day, at most' },
  hintCardPriceCents: { zh: '提示卡价格', en: 'Hint card price' },
  xrayCardPriceCents: { zh: '透视卡价格', en: 'X-ray card price' },
  aiDailyPerAccount: { zh: '每个账号每天的 AI 次数', en: 'AI requests per account per day' },
  aiDailyPerShop: { zh: '全店每天的 AI 次数', en: 'AI requests for the whole shop per day' },
  // account security
  currentPassword: { zh: '当前密码', en: 'Current password' },
  newPassword: { zh: '新密码', en: 'New password' },
  reauth: { zh: '验证码', en: 'Code' },
  'reauth.code': { zh: '验证码', en: 'Code' },
  'reauth.via': { zh: '验证码的接收方式', en: 'Where the code goes' },
  via: { zh: '验证码的接收方式', en: 'Where the code goes' },
  code: { zh: '验证码', en: 'Code' },
  birthDate: { zh: '出生日期', en: 'Birth date' },
  reason: { zh: '原因', en: 'Reason' },
  forfeit: { zh: '作废确认', en: 'Agreement to forfeit' },
  sessionId: { zh: '登录设备', en: 'Device' }
}

/** The series editor's fields (SeriesTab), for a save and the problems a publish lists. */
const SERIES: Record<string, Label> = {
  'title.zh': { zh: '标题（中文）', en: 'Title (Chinese)' },
  'title.en': { zh: '标题（英文）', en: 'Title (English)' },
  'description.zh': { zh: '描述（中文）', en: 'Description (Chinese)' },
  'description.en': { zh: '描述（英文）', en: 'Description (English)' },
  'rules.zh': { zh: '规则（中文）', en: 'Rules (Chinese)' },
  'rules.en': { zh: '规则（英文）', en: 'Rules (English)' },
  priceCents: { zh: '单盒价格', en: 'Price per box' },
  hiddenCasePpm: { zh: '每箱隐藏款概率', en: 'Hidden chance per case' },
  cover: { zh: '封面', en: 'Cover' },
  designs: { zh: '款式', en: 'Designs' },
  'designs.image': { zh: '款式图片', en: 'Design image' },
  'designs.name.zh': { zh: '款式名称（中文）', en: 'Design name (Chinese)' },
  'designs.name.en': { zh: '款式名称（英文）', en: 'Design name (English)' },
  'designs.rarity': { zh: '款式稀有度', en: 'Design rarity' },
  'designs.referenceValueCents': { zh: '参考价', en: 'Reference value' },
  'designs.recycleValueCents': { zh: '回收价', en: 'Recycle value' },
  tags: { zh: '主题标签', en: 'Theme tags' },
  'tags.zh': { zh: '主题标签（中文）', en: 'Theme tag (Chinese)' },
  'tags.en': { zh: '主题标签（英文）', en: 'Theme tag (English)' }
}

/** Finding a series on home: the search box and the filters as the page labels them. */
const SERIES_SEARCH_FIELDS: Record<string, Label> = {
  q: { zh: '搜索内容', en: 'Search text' },
  priceMinCents: { zh: '最低价', en: 'Lowest price' },
  priceMaxCents: { zh: '最高价', en: 'Highest price' },
  rarity: { zh: '稀有度', en: 'Rarity' },
  tagIds: { zh: '主题', en: 'Theme' },
  hasHidden: { zh: '隐藏款', en: 'Hidden design' },
  sort: { zh: '排序', en: 'Sort' }
}

/** The sales report's range (the editor's Data tab, src/locales salesReport.from / salesReport.to). */
const SALES_RANGE: Record<string, Label> = {
  from: { zh: '开始日期', en: 'From' },
  to: { zh: '结束日期', en: 'To' }
}

/** Names whose meaning depends on the route. */
const ON_ROUTE: Record<string, Record<string, Label>> = {
  '/api/operator/seriesSave': SERIES,
  '/api/operator/seriesPublish': SERIES,
  '/api/seriesList': SERIES_SEARCH_FIELDS,
  '/api/seriesSuggest': SERIES_SEARCH_FIELDS,
  '/api/security/limits': {
    daily: { zh: '每日限额', en: 'Daily limit', money: true },
    monthly: { zh: '每月限额', en: 'Monthly limit', money: true }
  },
  '/api/security/deleteAccount': {
    password: { zh: '当前密码', en: 'Current password' }
  },
  '/api/security/bindCode': {
    phone: { zh: '手机号', en: 'Phone' },
    email: { zh: '邮箱', en: 'E-mail' }
  },
  '/api/security/bind': {
    phone: { zh: '手机号', en: 'Phone' },
    email: { zh: '邮箱', en: 'E-mail' }
  },
  '/api/withdrawRequest': {
    amountCents: { zh: '提现金额', en: 'Amount' }
  },
  '/generalOrder/create': {
    amountCents: { zh: '充值金额', en: 'Top-up amount' }
  },
  '/api/addressSave': {
    name: { zh: '收货人', en: 'Receiver' },
    phone: { zh: '手机号', en: 'Mobile number' },
    region: { zh: '所在地区', en: 'Region' },
    detail: { zh: '详细地址', en: 'Street, building, room' },
    isDefault: { zh: '默认地址', en: 'Default address' }
  },
  '/api/show/create': {
    prizeIds: { zh: '晒的奖品', en: 'Prizes shown' },
    images: { zh: '照片', en: 'Photos' },
    text: { zh: '晒单内容', en: 'What you say' }
  },
  '/api/show/comment': {
    text: { zh: '评论内容', en: 'Comment' },
    parentId: { zh: '回复的评论', en: 'Comment replied to' },
    postId: { zh: '晒单', en: 'Post' }
  },
  '/api/show/report': {
    reason: { zh: '举报原因', en: 'Reason' },
    note: { zh: '补充说明', en: 'Details' },
    target: { zh: '举报对象', en: 'What is reported' }
  },
  '/api/operator/show/moderate': {
    reason: { zh: '隐藏原因', en: 'Reason for hiding' }
  },
  '/api/operator/show/wordsSave': {
    words: { zh: '屏蔽词', en: 'Blocked words' }
  },
  '/api/operator/webDomainsSave': {
    domains: { zh: '业务域名', en: 'Business domains' }
  },
  // the pictures an AI call hands its provider (security/fetchableUrl.ts refuses some by field)
  '/api/AiAnalysis': { 'files.url': { zh: '图片', en: 'Picture' } },
  '/api/questionRecognize': { 'files.url': { zh: '图片', en: 'Picture' } },
  '/api/pic/pic2word': { file: { zh: '图片', en: 'Picture' } },
  '/api/operator/salesReport': SALES_RANGE,
  '/api/operator/salesReportExport': SALES_RANGE
}

/** A wire path ("reauth.code", "designs.0.name") to its label entry, if the route or the app has one. */
function labelOf (url: string | undefined, path: string): Label | undefined {
  // "designs.2.name.zh" is labelled as "designs.name.zh" (which design, the message says)
  const general = path.split('.').filter(p => !/^\d+$/.test(p)).join('.')
  const last = general.split('.').pop() ?? path
  // the URL as registered carries the API prefix (/dev-api, /prod-api ...) before the contract's path
  const route = url ? ON_ROUTE[url] ?? ON_ROUTE[Object.keys(ON_ROUTE).find(k => url.endsWith(k)) ?? ''] : undefined
  return route?.[path] ?? route?.[general] ?? route?.[last] ?? EVERYWHERE[path] ?? EVERYWHERE[general] ?? EVERYWHERE[last]
}

/** The label of a wire path in a language (the path itself when it has none). */
export function fieldLabel (locale: Locale, url: string | undefined, path: string): string {
  return labelOf(url, path)?.[locale] ?? path
}

/** True when the wire path holds money in cents. */
export function isMoneyField (url: string | undefined, path: string): boolean {
  return /Cents$/.test(path) || labelOf(url, path)?.money === true
}

/**
 * The params of a failure as a person reads them: `field` as labelled, and the `limit` of a money
 * field (a schema minimum or maximum, in cents on the wire) in yuan.
 */
export function presentParams (locale: Locale, url: string | undefined, params: MessageParams): MessageParams {
  const field = params.field
  if (typeof field !== 'string' || field.startsWith('@')) return params
  const out: MessageParams = { ...params, field: fieldLabel(locale, url, field) }
  if (typeof params.limit === 'number' && isMoneyField(url, field)) out.limit = formatYuan(params.limit)
  return out
}

/**
 * The zh templates keep a space around {field} for a Latin wire name; around a Chinese label it goes
 * where the other side is Chinese too ("每日限额 不能大于" -> "每日限额不能大于"). Only beside the label:
 * a space in a name the message quotes stays.
 */
export function tidyZh (text: string, label: string): string {
  if (!/[\u4e00-\u9fff]/.test(label)) return text
  const han = '[\u4e00-\u9fff（）]'
  const at = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return text
    .replace(new RegExp(`(${at}) (?=${han})`, 'g'), '$1')
    .replace(new RegExp(`(${han}) (${at})`, 'g'), '$1$2')
}
