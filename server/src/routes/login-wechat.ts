/**
 * WeChat logins (spec 7):
 *  POST /login/weapp {code}        mini-program: code2session -> openid (+unionid)
 *  GET  /login/openid?code=        web OAuth, silent (snsapi_base): the openid alone
 *  GET  /login/wechat              the web OAuth authorize URL (+ state)
 *  POST /login/wechat {code}       web OAuth (snsapi_userinfo): openid + nickname + avatar
 *  POST /get_mp_url                a mini-program URL link
 */
import { randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { accountRoutes as r, type LoginResult } from '../../../types/accounts'
import type { Api, AppContext } from '../context'
import { features } from '../config'
import { ApiFailure, fail } from '../core/errors'
import { clientMeta, enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { translate } from '../i18n/messages'
import { RULES } from '../security/rules'
import { ProviderUnavailableError } from '../providers/errors'
import { observedCall } from '../providers/calls'
import { WeChatError } from '../providers/wechat'
import { PROVIDERS, userForIdentity, type IdentityClaim } from '../domain/account/identities'
import { toUserInfo } from '../domain/account/users'
import { checkMpUrlTarget } from '../domain/ops/webDomains'

type WeChatKind = 'weapp' | 'wechat'

/**
 * Runs a WeChat call. An errcode answer to a login (bad or used code) is a failed login (401); to a
 * service call it is WeChat refusing us (502, errcode in data). Outages are a 502.
 */
async function wechatCall<T> (kind: WeChatKind, fn: () => Promise<T>, use: 'login' | 'service' = 'login'): Promise<T> {
  try {
    return await observedCall(kind, fn, err => err instanceof WeChatError)
  } catch (err) {
    if (err instanceof WeChatError) {
      if (use === 'service') {
        throw new ApiFailure(502, 'provider.unavailable', { provider: `@provider.${kind}` }, { provider: kind, errcode: err.errcode }, 502)
      }
      throw fail.unauthorized('wechat.loginFailed', { reason: `${err.errmsg} (${err.errcode})` }, { errcode: err.errcode })
    }
    if (err instanceof ProviderUnavailableError) throw fail.providerUnavailable(kind)
    throw err
  }
}

async function login (request: FastifyRequest, ctx: AppContext, claim: Omit<IdentityClaim, 'nickname'> & { nickname?: string }): Promise<LoginResult> {
  const user = await userForIdentity(ctx.db, ctx.clock, {
    ...claim,
    nickname: claim.nickname || translate(request.locale, 'wechat.defaultNickname')
  })
  // only if the identity still leads to the account (a deletion unlinks it)
  const token = await ctx.sessions.create(Number(user.id), clientMeta(request), { identity: { provider: claim.provider, subject: claim.subject } })
  return { token, user: toUserInfo(user) }
}

export function wechatRoutes (app: Api, ctx: AppContext): void {
  const requireWeapp = () => { if (!features(ctx.config).weapp) throw fail.providerNotConfigured('weapp') }
  const requireWeb = () => { if (!features(ctx.config).wechatWeb) throw fail.providerNotConfigured('wechat') }

  defineRoute(app, ctx, r.weappLogin, async ({ request, body }) => {
    requireWeapp()
    await enforceLimits(ctx, [[RULES.loginPerIp, request.ip]])
    const s = await wechatCall('weapp', () => ctx.wechat.code2Session(body.code))
    return login(request, ctx, { provider: PROVIDERS.weapp, subject: s.openid, unionid: s.unionid })
  })

  defineRoute(app, ctx, r.openidLogin, async ({ request, query }) => {
    requireWeb()
    await enforceLimits(ctx, [[RULES.loginPerIp, request.ip]])
    const t = await wechatCall('wechat', () => ctx.wechat.oauthAccessToken(query.code))
    return login(request, ctx, { provider: PROVIDERS.wechatWeb, subject: t.openid, unionid: t.unionid })
  })

  defineRoute(app, ctx, r.wechatAuthorize, async ({ request, query }) => {
    requireWeb()
    const redirect = absoluteRedirect(request, query.redirect_uri)
    const state = randomBytes(16).toString('hex')
    const url = ctx.wechat.authorizeUrl(redirect, query.scope ?? 'snsapi_userinfo', state)
    return { url, state }
  })

  defineRoute(app, ctx, r.wechatLogin, async ({ request, body }) => {
    requireWeb()
    await enforceLimits(ctx, [[RULES.loginPerIp, request.ip]])
    const t = await wechatCall('wechat', () => ctx.wechat.oauthAccessToken(body.code))
    const profile = t.scope.includes('snsapi_userinfo')
      ? await wechatCall('wechat', () => ctx.wechat.userInfo(t.accessToken, t.openid))
      : null
    return login(request, ctx, {
      provider: PROVIDERS.wechatWeb,
      subject: t.openid,
      unionid: t.unionid ?? profile?.unionid,
      nickname: profile?.nickname,
      avatar: profile?.avatar
    })
  })

  defineRoute(app, ctx, r.mpUrl, async ({ request, body }) => {
    requireWeapp()
    await enforceLimits(ctx, [[RULES.mpUrlPerIp, request.ip]])
    // the web view shows only the shop's business domains (issue 48 item 4)
    await checkMpUrlTarget(ctx.db, body.path, body.query)
    const url = await wechatCall('weapp', () => ctx.wechat.generateUrlLink({
      path: body.path?.replace(/^\/+/, ''),
      query: body.query,
      expireDays: body.expire_interval
    }), 'service')
    return { url }
  })
}

/** The OAuth redirect: an absolute http(s) URL as given, or a path on this host (default "/"). */
function absoluteRedirect (request: FastifyRequest, given: string | undefined): string {
  const base = `${request.protocol}://${request.host}`
  let url: URL
  try {
    url = new URL(given ?? '/', base)
  } catch {
    throw fail.field('redirect_uri', 'validation.format')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail.field('redirect_uri', 'validation.format')
  return url.toString()
}
