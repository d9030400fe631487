/** WeChat Pay API v3: the merchant's settings and keys, all or nothing (the key files are read at start-up). */
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { apiBase, isUrl, variable, type Problems, type Reader } from './env'

const MCH_ID = /^\d{6,32}$/
const SERIAL = /^[0-9A-Fa-f]{8,64}$/
const APP_ID = /^[A-Za-z0-9_-]{1,32}$/
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/

export const wechatPayVariables = {
  WECHATPAY_MCHID: variable.text('The merchant id (digits)', { pattern: MCH_ID }),
  WECHATPAY_SERIAL: variable.text('The serial number of the merchant API certificate (hex)', { pattern: SERIAL }),
  WECHATPAY_PRIVATE_KEY_PATH: variable.text('The merchant API private key file (apiclient_key.pem, PEM RSA)'),
  WECHATPAY_APIV3_KEY: variable.text('The APIv3 key (exactly 32 bytes): decrypts the notifications'),
  WECHATPAY_APPID: variable.text('The app the payer pays in (for JSAPI the mini-program\'s appid)', { pattern: APP_ID }),
  WECHATPAY_NOTIFY_URL: variable.url('Where WeChat Pay posts notifications (https in production): .../generalOrder/notify/wechat'),
  WECHATPAY_REFUND_NOTIFY_URL: variable.url('Where WeChat Pay posts refund results; unset: WECHATPAY_NOTIFY_URL'),
  WECHATPAY_PLATFORM_CERT_PATH: variable.text('The platform certificate file (PEM; its serial is read from it)'),
  WECHATPAY_PLATFORM_PUBLIC_KEY_PATH: variable.text('Instead of the certificate: the WeChat Pay public key file (pub_key.pem)'),
  WECHATPAY_PLATFORM_PUBLIC_KEY_ID: variable.text('The WeChat Pay public key\'s id (PUB_KEY_ID_...)', { pattern: KEY_ID }),
  WECHATPAY_API_BASE: variable.url('Base of the WeChat Pay API', 'https://api.mch.weixin.qq.com')
}

/** WeChat Pay API v3 merchant settings (all or nothing; the key files are read at start-up). */
export interface WeChatPayConfig {
  mchId: string
  /** Serial number of the merchant API certificate (sent as serial_no). */
  merchantSerial: string
  /** The merchant API private key (apiclient_key.pem), PEM. */
  privateKeyPem: string
  /** The APIv3 key: 32 bytes, decrypts notifications. */
  apiV3Key: string
  /** The app the payer pays in (mini-program appid for JSAPI; also used for H5). */
  appId: string
  notifyUrl: string
  /** Where refund results are posted (default: notifyUrl; the same route takes both). */
  refundNotifyUrl: string
  /** The platform certificate serial, or the WeChat Pay public key id (PUB_KEY_ID_...). */
  platformSerial: string
  /** The platform public key, PEM: verifies answers and notifications. */
  platformPublicKeyPem: string
  apiBase: string
}

const REQUIRED = ['WECHATPAY_MCHID', 'WECHATPAY_SERIAL', 'WECHATPAY_PRIVATE_KEY_PATH', 'WECHATPAY_APIV3_KEY', 'WECHATPAY_APPID', 'WECHATPAY_NOTIFY_URL'] as const
const PLATFORM = ['WECHATPAY_PLATFORM_CERT_PATH', 'WECHATPAY_PLATFORM_PUBLIC_KEY_PATH', 'WECHATPAY_PLATFORM_PUBLIC_KEY_ID'] as const

function readFile (file: string, cwd: string): string | null {
  try {
    return fs.readFileSync(path.resolve(cwd, file), 'utf8')
  } catch {
    return null
  }
}

/**
 * WECHATPAY_*: all of REQUIRED plus the platform key, either WECHATPAY_PLATFORM_CERT_PATH
 * (platform certificate; its serial is read from it) or WECHATPAY_PLATFORM_PUBLIC_KEY_PATH with
 * WECHATPAY_PLATFORM_PUBLIC_KEY_ID (the "WeChat Pay public key" mode). None set: WeChat Pay is off.
 */
export function parseWeChatPay (env: Reader<keyof typeof wechatPayVariables>, cwd: string, production: boolean, problems: Problems): WeChatPayConfig | undefined {
  const base = apiBase(env, 'WECHATPAY_API_BASE', problems)
  const given = [...REQUIRED, ...PLATFORM].filter(n => env.get(n) !== undefined)
  if (!given.length) return undefined
  const missing: string[] = REQUIRED.filter(n => env.get(n) === undefined)
  const certPath = env.get('WECHATPAY_PLATFORM_CERT_PATH')
  const keyPath = env.get('WECHATPAY_PLATFORM_PUBLIC_KEY_PATH')
  const keyId = env.get('WECHATPAY_PLATFORM_PUBLIC_KEY_ID')
  if (!certPath && !(keyPath && keyId)) missing.push('WECHATPAY_PLATFORM_CERT_PATH (or WECHATPAY_PLATFORM_PUBLIC_KEY_PATH with WECHATPAY_PLATFORM_PUBLIC_KEY_ID)')
  if (missing.length) {
    problems.push(`WeChat Pay needs every WECHATPAY_* variable; missing: ${missing.join(', ')}`)
    return undefined
  }
  const before = problems.length
  const mchId = env.get('WECHATPAY_MCHID')!
  if (!MCH_ID.test(mchId)) problems.push('WECHATPAY_MCHID must be the merchant id (digits)')
  const merchantSerial = env.get('WECHATPAY_SERIAL')!
  if (!SERIAL.test(merchantSerial)) problems.push('WECHATPAY_SERIAL must be the merchant certificate serial number (hex)')
  const privateKeyPem = readFile(env.get('WECHATPAY_PRIVATE_KEY_PATH')!, cwd)
  try {
    if (privateKeyPem === null) throw new Error('unreadable')
    const key = createPrivateKey(privateKeyPem)
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA')
  } catch {
    problems.push('WECHATPAY_PRIVATE_KEY_PATH must name a readable PEM RSA private key (apiclient_key.pem)')
  }
  const apiV3Key = env.get('WECHATPAY_APIV3_KEY')!
  if (Buffer.byteLength(apiV3Key, 'utf8') !== 32) problems.push('WECHATPAY_APIV3_KEY must be exactly 32 bytes')
  const appId = env.get('WECHATPAY_APPID')!
  if (!APP_ID.test(appId)) problems.push('WECHATPAY_APPID must be an appid (e.g. wx1234567890abcdef)')
  const protocols = production ? ['https:'] : ['http:', 'https:']
  const notifyUrl = env.get('WECHATPAY_NOTIFY_URL')!
  if (!isUrl(notifyUrl, protocols)) {
    problems.push(`WECHATPAY_NOTIFY_URL must be an ${production ? 'https://' : 'http(s)://'} URL (ending in /generalOrder/notify/wechat)`)
  }
  const refundNotifyUrl = env.get('WECHATPAY_REFUND_NOTIFY_URL') ?? notifyUrl
  if (!isUrl(refundNotifyUrl, protocols)) {
    problems.push(`WECHATPAY_REFUND_NOTIFY_URL must be an ${production ? 'https://' : 'http(s)://'} URL (default: WECHATPAY_NOTIFY_URL)`)
  }
  const platform = certPath ? platformFromCertificate(certPath, cwd, problems) : platformFromPublicKey(keyPath!, keyId!, cwd, problems)
  if (problems.length > before) return undefined
  return { mchId, merchantSerial, privateKeyPem: privateKeyPem!, apiV3Key, appId, notifyUrl, refundNotifyUrl, ...platform, apiBase: base }
}

type Platform = Pick<WeChatPayConfig, 'platformSerial' | 'platformPublicKeyPem'>

/** WECHATPAY_PLATFORM_CERT_PATH: the serial and the public key of the platform certificate. */
function platformFromCertificate (certPath: string, cwd: string, problems: Problems): Platform {
  try {
    const pem = readFile(certPath, cwd)
    if (pem === null) throw new Error('unreadable')
    const cert = new X509Certificate(pem)
    return { platformSerial: cert.serialNumber.toUpperCase(), platformPublicKeyPem: cert.publicKey.export({ type: 'spki', format: 'pem' }).toString() }
  } catch {
    problems.push('WECHATPAY_PLATFORM_CERT_PATH must name a readable PEM platform certificate')
    return { platformSerial: '', platformPublicKeyPem: '' }
  }
}

/** WECHATPAY_PLATFORM_PUBLIC_KEY_PATH with WECHATPAY_PLATFORM_PUBLIC_KEY_ID: the "WeChat Pay public key" mode. */
function platformFromPublicKey (keyPath: string, keyId: string, cwd: string, problems: Problems): Platform {
  let platformPublicKeyPem = ''
  try {
    const pem = readFile(keyPath, cwd)
    if (pem === null) throw new Error('unreadable')
    platformPublicKeyPem = createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString()
  } catch {
    problems.push('WECHATPAY_PLATFORM_PUBLIC_KEY_PATH must name a readable PEM public key')
  }
  if (!KEY_ID.test(keyId)) problems.push('WECHATPAY_PLATFORM_PUBLIC_KEY_ID must be the public key id (PUB_KEY_ID_...)')
  return { platformSerial: keyId, platformPublicKeyPem }
}
