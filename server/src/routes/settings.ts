/** GET /system/setting/login: which login methods and optional shopper features this configuration offers. */
import { accountRoutes as r, type LoginSettings, type ShopCapabilities } from '../../../types/accounts'
import type { Api, AppContext } from '../context'
import { features } from '../config'
import { defineRoute } from '../http/route'
import { webDomainsOf } from '../domain/ops/webDomains'
import { isDevOutbox } from '../providers/devOutbox'

/** The optional features a shopper may see: each is on only when its provider is there. */
export function shopCapabilities (ctx: AppContext): ShopCapabilities {
  return {
    maps: ctx.config.maps.routeProvider !== null,
    ...(ctx.config.maps.routeProvider ? { mapProvider: ctx.config.maps.routeProvider } : {}),
    tracking: ctx.kuaidi100 !== null,
    priceCompare: ctx.jdUnion !== null,
    speech: ctx.tts !== null,
    ai: ctx.ai !== null,
    ...(ctx.config.maps.webMap ? { webMap: { provider: 'tencentMap' as const, script: ctx.config.maps.webMap.script } } : {})
  }
}

export async function loginSettings (ctx: AppContext): Promise<LoginSettings> {
  const f = features(ctx.config)
  const devLogOnly = ([['sms', ctx.sms], ['email', ctx.mailer]] as const).filter(([, p]) => isDevOutbox(p)).map(([k]) => k)
  return {
    password: true,
    sms: ctx.sms !== null,
    email: ctx.mailer !== null,
    wechat: f.wechatWeb,
    weapp: f.weapp,
    register: true,
    capabilities: shopCapabilities(ctx),
    webDomains: await webDomainsOf(ctx.db),
    ...(devLogOnly.length ? { devLogOnly } : {})
  }
}

export function settingsRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.loginSettings, () => loginSettings(ctx))
}
