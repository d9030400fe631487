/**
 * The services the panel lists: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { LoginSettings } from '~types/accounts'
import type { HelpersAvailable } from '~types/vision'

export type Known = { settings: LoginSettings | null; helpers: HelpersAvailable | null }

/**
 * Each third-party service, whether this server has it, and the environment variables that turn it
 * on (server/src/config/, .env.example). The one place in the app that names configuration: the
 * operators' Settings tab. A shopper never sees these words; their pages hide what is off.
 */
export const SERVICES: Array<{ key: string; env: string[]; on?: (k: Known) => boolean | undefined; devLog?: (k: Known) => boolean }> = [
  // in development without a provider, codes and mails are only printed in the server's log (devLogOnly)
  { key: 'sms', env: ['SMS_PROVIDER_URL', 'SMS_API_KEY'], on: k => k.settings?.sms, devLog: k => !!k.settings?.devLogOnly?.includes('sms') },
  { key: 'mail', env: ['SMTP_URL', 'MAIL_FROM'], on: k => k.settings?.email, devLog: k => !!k.settings?.devLogOnly?.includes('email') },
  { key: 'weapp', env: ['WECHAT_APPID', 'WECHAT_SECRET'], on: k => k.settings?.weapp },
  { key: 'wechatWeb', env: ['WECHAT_OAUTH_APPID', 'WECHAT_OAUTH_SECRET'], on: k => k.settings?.wechat },
  { key: 'wechatPay', env: ['WECHATPAY_MCHID', 'WECHATPAY_SERIAL', 'WECHATPAY_PRIVATE_KEY_PATH', 'WECHATPAY_APIV3_KEY', 'WECHATPAY_APPID', 'WECHATPAY_NOTIFY_URL', 'WECHATPAY_PLATFORM_PUBLIC_KEY_PATH'] },
  { key: 'maps', env: ['TENCENT_MAP_KEY', 'TENCENT_MAP_SK', 'AMAP_KEY', 'MAP_PROVIDER', 'TENCENT_MAP_JS_KEY'], on: k => k.settings?.capabilities.maps },
  { key: 'tracking', env: ['KUAIDI100_CUSTOMER', 'KUAIDI100_KEY'], on: k => k.settings?.capabilities.tracking },
  { key: 'priceCompare', env: ['JD_UNION_APP_KEY', 'JD_UNION_APP_SECRET'], on: k => k.helpers?.priceCompare },
  { key: 'tts', env: ['TTS_ENGINE (espeak-ng)'], on: k => k.helpers?.tts },
  { key: 'ai', env: ['AI_API_KEY', 'AI_API_BASE'], on: k => k.helpers?.ai },
  { key: 'ocr', env: ['OCR_ENGINE (tesseract, chi_sim + eng)'], on: k => k.helpers?.ocr },
  { key: 'imageGen', env: ['IMAGE_API_KEY', 'IMAGE_API_BASE', 'IMAGE_MODEL'], on: k => k.helpers?.word2pic },
  { key: 'pdf', env: ['PDF_ENGINE'], on: k => k.helpers?.pdf },
  { key: 'video', env: ['VIDEO_API_KEY', 'VIDEO_API_BASE'], on: k => k.helpers?.video },
  { key: 'music', env: ['MUSIC_API_BASE', 'MUSIC_API_KEY'], on: k => k.helpers?.music },
  { key: 'tickets', env: ['JUHE_TRAIN_KEY', 'JUHE_FLIGHT_KEY'], on: k => (k.helpers ? k.helpers.tickets || k.helpers.flights : undefined) },
  { key: 'robots', env: ['FEISHU_WEBHOOK_URL', 'FEISHU_WEBHOOK_SECRET', 'WECOM_WEBHOOK_URL'] },
  { key: 'mailbox', env: ['COMPLAINT_MAILBOX'] },
  { key: 'operators', env: ['OPERATOR_ACCOUNTS'] }
]
