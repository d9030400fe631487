/**
 * Top-up through the order flow of spec 7: unique order number, create, payment parameters, pay,
 * then the order's status until it is paid. Sandbox settles at once; WeChat Pay opens the payment
 * sheet (mini-program) or WeChat's H5 payment page (browser).
 */
import Taro from '@tarojs/taro'
import { TOPUP_PRODUCT_ID } from '~types/limits'
import type { OrderView, PayChannel } from '~types/shop'
import { POLL_INTERVAL_MS } from '@/constants'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { browser } from '@/utils/browser'
import { orderApi } from './shop'

/** How long a payment is waited for after paying (polls every 2 s). */
export const PAYMENT_WAIT_POLLS = 30

export class PaymentError extends Error {
  constructor (readonly reason: 'canceled' | 'unpaid' | 'login', message: string) {
    super(message)
    this.name = 'PaymentError'
  }
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

async function currentUserId (): Promise<number> {
  if (!sessionStore.user) await sessionStore.restore()
  const id = sessionStore.user?.id
  if (!id) throw new PaymentError('login', t('request.sessionExpired'))
  return id
}

/** Pays amountCents into the wallet's cash; resolves with the paid order ('redirected' for H5 pay). */
export async function topUp (amountCents: number, channel: PayChannel): Promise<OrderView | 'redirected'> {
  const userId = await currentUserId()
  const opId = await orderApi.uniqueOrderNo(TOPUP_PRODUCT_ID, userId)
  await orderApi.create({ productId: TOPUP_PRODUCT_ID, userId, opId, amountCents, channel })
  const params = await orderApi.paymentParams(opId)

  if (params.sandbox) {
    await orderApi.sandboxPay(opId)
  } else if (params.jsapi) {
    try {
      await Taro.requestPayment({ ...params.jsapi })
    } catch {
      await orderApi.cancel(opId).catch(() => undefined)
      throw new PaymentError('canceled', t('payment.canceled'))
    }
  } else if (process.env.TARO_ENV === 'h5' && params.h5Url) {
    // H5 pay is a browser's (the mini-program is never offered that channel: channelsForPlatform)
    browser.assign(params.h5Url)
    return 'redirected'
  }

  for (let i = 0; i < PAYMENT_WAIT_POLLS; i++) {
    const order = await orderApi.status(opId)
    if (order.status === 'paid') return order
    if (order.status === 'canceled') throw new PaymentError('canceled', t('payment.canceled'))
    await sleep(POLL_INTERVAL_MS)
  }
  throw new PaymentError('unpaid', t('payment.unpaid'))
}
