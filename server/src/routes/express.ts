/**
 * Parcel tracking (types/express.ts expressRoutes) through Kuaidi100. Order of checks: login (401), the
 * body's schema (400), the phone shunfeng needs (400 on phone), Kuaidi100's key (422 not configured),
 * the caller's per-user limit (429), then Kuaidi100.
 */
import { expressRoutes as r, type ExpressInquiryRequest, type ExpressMapResult } from '../../../types/express'
import { EXPRESS_PHONE_CARRIERS } from '../../../types/limits'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { configured, providerCall } from '../http/provider-call'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { translate } from '../i18n/messages'
import { ProviderRefusedError, ProviderUnavailableError } from '../providers/errors'
import { observedCall } from '../providers/calls'
import { RULES } from '../security/rules'

/** Spec 5: shunfeng and shunfengkuaiyun answer only with the phone of the sender or receiver. */
function checkPhone (body: Pick<ExpressInquiryRequest, 'com' | 'phone'>): void {
  if ((EXPRESS_PHONE_CARRIERS as readonly string[]).includes(body.com) && !body.phone) {
    throw fail.field('phone', 'express.phoneRequired')
  }
}

export function expressRoutes (app: Api, ctx: AppContext): void {
  const limit = (userId: number) => enforceLimits(ctx, [[RULES.expressPerUser, String(userId)]])

  defineRoute(app, ctx, r.inquiry, async ({ body, userId }) => {
    checkPhone(body)
    const client = configured(ctx.kuaidi100, 'kuaidi100')
    await limit(userId)
    return providerCall('kuaidi100', () => client.query({ ...body, resultv2: 4 }))
  })

  defineRoute(app, ctx, r.map, async ({ body, request, userId }): Promise<ExpressMapResult> => {
    checkPhone(body)
    const client = configured(ctx.kuaidi100, 'kuaidi100')
    await limit(userId)
    try {
      return await observedCall('kuaidi100', () => client.mapTrack({ ...body, from: body.from ?? ctx.config.express.shipFromCity, resultv2: 5 }))
    } catch (err) {
      // spec 8: the map call answers success false with the provider's message, or "接口请求失败"
      if (err instanceof ProviderRefusedError) return { success: false, message: err.detail }
      if (err instanceof ProviderUnavailableError) {
        request.log.warn({ err }, 'Kuaidi100 map track failed')
        return { success: false, message: translate(request.locale, 'express.mapFailed') }
      }
      throw err
    }
  })
}
