/**
 * The purchase page's logic: the server's check comes before any money, a top-up only after it passed
 * and only for a shortfall, and a purchase that fails after a top-up is told apart; the selection
 * kept across a login (slots in the query, the remembered page in Taro storage, the dialog that says
 * why).
 */
import Taro from '@tarojs/taro'
import { TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from '~types/limits'
import type { PurchaseCheckResult, PurchaseResult, CaseView } from '~types/shop'
import { runPurchase, buyNow, topUpAmount, type PurchaseFlowDeps } from '@/pagesA/purchase/flow'
import { channelSplit } from '@/pagesA/purchase/money'
import { formatCents } from '@/utils/format'
import { ApiError, networkError, statusError } from '@/services/errors'
import { detailLink, parseSlots, restoreSelection } from '@/utils/slots'
import { isReturnTarget, loginToContinue, rememberReturn, takeReturn } from '@/utils/loginReturn'
import { LOGIN_RETURN_KEY, LOGIN_RETURN_TTL_MS } from '@/constants'
import { localeStore, t } from '@/stores/locale'

const order = { caseId: 7, slots: [2, 5], acknowledged: true as const, priceCents: 1500 }
const plan = (shortfallCents: number): PurchaseCheckResult => ({
  caseId: 7, seriesId: 3, slots: [2, 5], priceCents: 1500, totalCents: 3000, creditCents: 0, cashCents: 3000,
  shortfallCents, balance: { cashCents: 3000 - shortfallCents, creditCents: 0 }, dailyLeftCents: null
})
const bought = { purchaseId: 1, caseId: 7, seriesId: 3, totalCents: 3000, spentCreditCents: 0, spentCashCents: 3000, prizes: [], balance: { cashCents: 0, creditCents: 0 }, xrayCardsEarned: 0 } as PurchaseResult

/** Fakes that record the order of the calls. */
function fakes (o: { check?: () => Promise<PurchaseCheckResult>; topUp?: () => Promise<'paid' | 'redirected'>; purchase?: () => Promise<PurchaseResult> }) {
  const calls: string[] = []
  const deps: PurchaseFlowDeps = {
    check: jest.fn(async (body) => { calls.push(`check ${JSON.stringify(body)}`); return (o.check ?? (async () => plan(0)))() }),
    topUp: jest.fn(async (amount) => { calls.push(`topUp ${amount}`); return (o.topUp ?? (async () => 'paid' as const))() }),
    purchase: jest.fn(async (body) => { calls.push(`purchase ${body.idempotencyKey}`); return (o.purchase ?? (async () => bought))() })
  }
  return { calls, deps }
}

describe('runPurchase: check first, money only after', () => {
  it('a refusal by the check asks for no money and buys nothing', async () => {
    const cap = new ApiError(422, 'Minors may spend at most ¥100.00 a day; ¥100.00 left today', { reason: 'daily_cap', capCents: 10000, leftCents: 10000 })
    const { calls, deps } = fakes({ check: async () => { throw cap } })
    const outcome = await runPurchase(order, 'key-000001', deps)
    expect(outcome).toEqual({ kind: 'refused', error: cap })
    expect(calls).toEqual([`check ${JSON.stringify(order)}`])
  })

  it('no shortfall: no top-up; the purchase is the checked order under the page\'s key', async () => {
    const { calls, deps } = fakes({})
    expect(await runPurchase(order, 'key-000002', deps)).toEqual({ kind: 'bought', result: bought, toppedUpCents: 0 })
    expect(calls).toEqual([`check ${JSON.stringify(order)}`, 'purchase key-000002'])
    expect(deps.purchase).toHaveBeenCalledWith({ ...order, idempotencyKey: 'key-000002' }, 0)
  })

  it('a shortfall is topped up after the check, before the purchase; at least the smallest top-up', async () => {
    const { calls, deps } = fakes({ check: async () => plan(1200) })
    expect(await runPurchase(order, 'key-000003', deps)).toEqual({ kind: 'bought', result: bought, toppedUpCents: 1200 })
    expect(calls.map(c => c.split(' ')[0])).toEqual(['check', 'topUp', 'purchase'])
    expect(deps.topUp).toHaveBeenCalledWith(1200)
    const small = fakes({ check: async () => plan(30) })
    await runPurchase(order, 'key-000004', small.deps)
    expect(small.deps.topUp).toHaveBeenCalledWith(TOPUP_MIN_CENTS)
    expect(topUpAmount(30)).toBe(TOPUP_MIN_CENTS)
    expect(topUpAmount(TOPUP_MIN_CENTS + 1)).toBe(TOPUP_MIN_CENTS + 1)
  })

  it('a shortfall larger than one top-up asks for nothing', async () => {
    const { calls, deps } = fakes({ check: async () => plan(TOPUP_MAX_CENTS + 1) })
    expect(await runPurchase(order, 'key-000005', deps)).toEqual({ kind: 'topUpTooLarge', shortfallCents: TOPUP_MAX_CENTS + 1 })
    expect(calls).toHaveLength(1)
  })

  it('a failed or canceled top-up buys nothing; a payment page the browser left for buys nothing yet', async () => {
    const canceled = new Error('canceled')
    const failed = fakes({ check: async () => plan(500), topUp: async () => { throw canceled } })
    expect(await runPurchase(order, 'key-000006', failed.deps)).toEqual({ kind: 'topUpFailed', error: canceled })
    expect(failed.deps.purchase).not.toHaveBeenCalled()
    const away = fakes({ check: async () => plan(500), topUp: async () => 'redirected' })
    expect(await runPurchase(order, 'key-000007', away.deps)).toEqual({ kind: 'redirected' })
    expect(away.deps.purchase).not.toHaveBeenCalled()
  })

  it('a purchase refused after the top-up says how much was topped up (the money stays in the wallet)', async () => {
    const sold = new ApiError(409, 'Slot 5 already sold', { field: 'slots', slot: 5 })
    const { deps } = fakes({ check: async () => plan(1200), purchase: async () => { throw sold } })
    expect(await runPurchase(order, 'key-000008', deps)).toEqual({ kind: 'failed', error: sold, toppedUpCents: 1200, retryable: false })
    const plain = fakes({ purchase: async () => { throw sold } })
    expect(await runPurchase(order, 'key-000009', plain.deps)).toEqual({ kind: 'failed', error: sold, toppedUpCents: 0, retryable: false })
  })

  it('a lost answer (network, timeout, 5xx) may be replayed with the same key; a 4xx may not', async () => {
    for (const [error, retryable] of [[networkError(), true], [statusError(502), true], [statusError(404), false]] as const) {
      const { deps } = fakes({ purchase: async () => { throw error } })
      expect(await buyNow({ ...order, idempotencyKey: 'key-000010' }, deps)).toEqual({ kind: 'failed', error, toppedUpCents: 0, retryable })
    }
  })
})

describe('slots in the query', () => {
  it('parseSlots keeps positive integers within a case, once each, in order', () => {
    expect(parseSlots('5,2,2,9')).toEqual([2, 5, 9])
    expect(parseSlots('1%2C2')).toEqual([1, 2])
    expect(parseSlots('0,-1,1.5,abc,101,3')).toEqual([3])
    expect(parseSlots('%E0%A4%A')).toEqual([])
    expect(parseSlots(undefined)).toEqual([])
  })

  it('detailLink carries the series, the case and the picked slots', () => {
    expect(detailLink(4, 9, [2, 5])).toBe('/pagesA/blind_box_detail/index?seriesId=4&caseId=9&slots=2%2C5')
    expect(detailLink(4, 9)).toBe('/pagesA/blind_box_detail/index?seriesId=4&caseId=9')
  })

  const box = (caseId: number, sold: number[]): CaseView => ({
    caseId, seriesId: 4, commit: 'c', size: 6, switchesLeft: 5, heldUntil: null, slots: Array.from({ length: 6 }, (_, i) => ({ slot: i + 1, sold: sold.includes(i + 1) }))
  } as CaseView)

  it('restoreSelection picks the slots again in the same case, and tells what was sold or that the case changed', () => {
    expect(restoreSelection([2, 5], 9, box(9, []))).toEqual({ picked: [2, 5], gone: [], otherCase: false })
    expect(restoreSelection([2, 5], 9, box(9, [5]))).toEqual({ picked: [2], gone: [5], otherCase: false })
    expect(restoreSelection([2, 5], 9, box(10, []))).toEqual({ picked: [], gone: [], otherCase: true })
    expect(restoreSelection([2, 5], null, box(10, [2]))).toEqual({ picked: [5], gone: [2], otherCase: false })
    expect(restoreSelection([], 9, box(10, []))).toEqual({ picked: [], gone: [], otherCase: false })
  })
})

describe('coming back after a login', () => {
  beforeEach(() => { Taro.removeStorageSync(LOGIN_RETURN_KEY) })
  afterEach(() => { jest.restoreAllMocks(); localeStore.setLocale('zh') })

  it('remembers a page of the app in Taro storage and gives it back once', () => {
    const now = 1_800_000_000_000
    expect(rememberReturn('/pagesA/blind_box_detail/index?seriesId=4&caseId=9&slots=2%2C5', now)).toBe(true)
    expect(takeReturn(now + 1000)).toBe('/pagesA/blind_box_detail/index?seriesId=4&caseId=9&slots=2%2C5')
    expect(takeReturn(now + 2000)).toBeNull()
    // spec 2's rewrite applies: /pages/x -> /pagesA/x
    rememberReturn('/pages/purchase/index?seriesId=1&caseId=2&slots=3', now)
    expect(takeReturn(now)).toBe('/pagesA/purchase/index?seriesId=1&caseId=2&slots=3')
  })

  it('a stale, foreign or malformed return is dropped', () => {
    const now = 1_800_000_000_000
    rememberReturn('/pagesA/home/index', now)
    expect(takeReturn(now + LOGIN_RETURN_TTL_MS + 1)).toBeNull()
    for (const url of ['https://evil.example/pagesA/home/index', '/pages/login/index', 'javascript:alert(1)', '//evil.example/x', '/pagesA/home/index#x', '/pagesA/../x/index']) {
      expect(rememberReturn(url, now)).toBe(false)
      expect(isReturnTarget(url)).toBe(false)
    }
    Taro.setStorageSync(LOGIN_RETURN_KEY, JSON.stringify({ url: 'https://evil.example', at: now }))
    expect(takeReturn(now)).toBeNull()
    Taro.setStorageSync(LOGIN_RETURN_KEY, '{not json')
    expect(takeReturn(now)).toBeNull()
  })

  it('loginToContinue says why in the user\'s language, then remembers the page and opens the login page', async () => {
    localeStore.setLocale('en')
    const modal = jest.spyOn(Taro, 'showModal').mockImplementation(() => Promise.resolve({ confirm: true, cancel: false, errMsg: 'ok' }) as never)
    const nav = jest.spyOn(Taro, 'navigateTo').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
    const reason = t('login.requiredToBuyPicked', { n: 2 })
    expect(reason).toBe('Boxes picked: 2. Log in to buy; you will come back here with them kept.')
    expect(await loginToContinue(reason, detailLink(4, 9, [2, 5]))).toBe(true)
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: 'Log in to continue', content: reason, confirmText: 'Log in', cancelText: 'Not now' }))
    expect(nav).toHaveBeenCalledWith({ url: '/pages/login/index' })
    expect(takeReturn()).toBe('/pagesA/blind_box_detail/index?seriesId=4&caseId=9&slots=2%2C5')
  })

  it('declining the dialog stays on the page and remembers nothing', async () => {
    localeStore.setLocale('zh')
    const modal = jest.spyOn(Taro, 'showModal').mockImplementation(() => Promise.resolve({ confirm: false, cancel: true, errMsg: 'ok' }) as never)
    const nav = jest.spyOn(Taro, 'navigateTo').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
    expect(await loginToContinue(t('login.requiredToBuyPicked', { n: 2 }), detailLink(4, 9, [2, 5]))).toBe(false)
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: '需要登录', content: '购买前请先登录。登录后会回到这里，已选的 2 个盒子会为你保留。' }))
    expect(nav).not.toHaveBeenCalled()
    expect(takeReturn()).toBeNull()
  })
})

describe('the shortfall pay button says what the channel charges', () => {
  it('the total, the balance part and the channel part; a smallest top-up above the shortfall says the rest stays', () => {
    localeStore.setLocale('zh')
    expect(channelSplit(11700, 5600, '微信支付')).toBe('余额 ¥61.00 + 微信支付 ¥56.00')
    expect(channelSplit(2500, 50, '微信支付')).toBe(`余额 ¥24.50 + 微信支付 ${formatCents(TOPUP_MIN_CENTS)}（多充的 ${formatCents(TOPUP_MIN_CENTS - 50)} 留在余额）`)
    localeStore.setLocale('en')
    expect(channelSplit(11700, 5600, 'WeChat Pay')).toBe('balance ¥61.00 + WeChat Pay ¥56.00')
  })
})
