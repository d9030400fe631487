/**
 * Build-time configuration. Taro inlines every `process.env.TARO_APP_*` variable it finds in the
 * environment or in `.env*` files; Jest reads the real environment. Read through functions so a test
 * can change the environment.
 */
export interface AppConfig {
  /** Base of every API call (spec 7). */
  apiBase: string
  appId: string
  appType: string
  env: string
  /** Configured locale, empty when not set. */
  locale: string
  /** Post error reports only when this is on (spec 8). */
  errorReportEnabled: boolean
  /** Extra URL that error reports also go to. */
  errorReportUrl: string
}

/** H5: the page's own origin (the API server serves the app too). */
export const DEFAULT_API_BASE = '/dev-api'
/**
 * The mini-program: WeChat takes only absolute URLs. The build always inlines one (config/index.ts,
 * scripts/weapp-api-base.js: this development default, or TARO_APP_API_BASE, https in production).
 */
export const DEFAULT_WEAPP_API_BASE = 'http://127.0.0.1:3000/dev-api'

const flag = (v: string | undefined) => v === 'true' || v === '1'

export function getConfig (): AppConfig {
  return {
    apiBase: (process.env.TARO_APP_API_BASE || (process.env.TARO_ENV === 'weapp' ? DEFAULT_WEAPP_API_BASE : DEFAULT_API_BASE)).replace(/\/+$/, ''),
    appId: process.env.TARO_APP_ID || 'blindbox-shop',
    appType: process.env.TARO_APP_TYPE || (process.env.TARO_ENV === 'weapp' ? 'weapp' : 'h5'),
    env: process.env.TARO_APP_ENV || 'dev',
    locale: process.env.TARO_APP_LOCALE || '',
    errorReportEnabled: flag(process.env.TARO_APP_ERROR_REPORT),
    errorReportUrl: process.env.TARO_APP_ERROR_REPORT_URL || ''
  }
}

export const isH5 = () => process.env.TARO_ENV === 'h5'
