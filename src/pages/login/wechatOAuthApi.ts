/**
 * The mini-program (and Jest): WeChat's web login flow (./wechatOAuth.ts) is at hand. The H5 build
 * resolves ./wechatOAuthApi.h5.ts instead, which fetches it when it runs.
 */
import * as flow from './wechatOAuth'

export type WechatOAuthApi = typeof flow

export function loadWechatOAuth (): Promise<WechatOAuthApi> {
  return Promise.resolve(flow)
}
