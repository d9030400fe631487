/**
 * The operators' chat robots (spec 7: /api/feishuRobotText, /api/wechatRobotText; operator alerts).
 *
 * Feishu (飞书) custom bot: POST the webhook URL (https://open.feishu.cn/open-apis/bot/v2/hook/<token>)
 * with JSON {timestamp, sign, msg_type: 'text', content: {text}}. With the bot's signature check on
 * (签名校验), sign = base64(HMAC-SHA256 keyed with `timestamp + "\n" + secret`, over nothing), the
 * timestamp in seconds and within an hour of Feishu's clock. Answers {code: 0, msg: 'success', data}
 * (older bots {StatusCode: 0, StatusMessage}); a refusal has a non-zero code: 19021 signature or
 * timestamp, 19022 IP not allowed, 19024 keyword missing, 19001 bad webhook token, 11232 rate limited,
 * 9499 bad request.
 *
 * WeCom (企业微信) group robot: POST https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=<key> with
 * JSON {msgtype: 'text', text: {content}} (content at most 2048 bytes). Answers {errcode: 0, errmsg:
 * 'ok'}; a refusal has a non-zero errcode: 93000 bad webhook key, 45009 rate limited (20 a minute),
 * 45002 too long, 44004 empty, 40008 bad message type.
 *
 * Spec 5: line breaks of a robot's text become spaces. A refusal is a ProviderRefusedError carrying the
 * provider's code and message; whatever keeps an answer from arriving or being read is a
 * ProviderUnavailableError that names the provider but never the webhook's token or key.
 */
import { createHmac } from 'node:crypto'
import type { Clock } from '../core/clock'
import { ProviderRefusedError, ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'
import { str, type Json } from './http'

export type RobotName = 'feishu' | 'wecom'

export interface Robot {
  readonly name: RobotName
  /** Posts the text (line breaks become spaces); answers the text as posted. */
  send (text: string): Promise<string>
}

/** Spec 5: "Chat-robot text: line breaks become spaces." */
export const robotText = (text: string): string => text.replace(/\r\n|\r|\n|\u2028|\u2029/g, ' ')

/** Feishu's signature of a timestamp (seconds, as sent) with the bot's secret. */
export function feishuSign (timestamp: string, secret: string): string {
  return createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64')
}

/** POSTs JSON; answers the JSON object of the answer (an HTTP error with a JSON body is still read: the provider's code decides). */
async function postJson (provider: RobotName, url: string, body: unknown, timeoutMs: number): Promise<Json> {
  let status = 0
  let text: string
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs)
    })
    status = res.status
    text = await res.text()
  } catch (err) {
    throw new ProviderUnavailableError(provider, `webhook: ${(err as Error).message}`, { cause: err })
  }
  let json: unknown = null
  try {
    json = JSON.parse(text)
  } catch {
    json = null
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw new ProviderUnavailableError(provider, `webhook: HTTP ${status}, the answer is not JSON`)
  }
  return json as Json
}

const codeOf = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v)) ? v : (typeof v === 'string' && /^-?\d+$/.test(v)) ? Number(v) : null

export class FeishuRobot implements Robot {
  readonly name = 'feishu' as const

  constructor (
    private readonly webhookUrl: string,
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS
  ) {}

  async send (text: string): Promise<string> {
    const content = robotText(text)
    const timestamp = String(Math.floor(this.clock() / 1000))
    const answer = await postJson(this.name, this.webhookUrl, {
      timestamp,
      sign: feishuSign(timestamp, this.secret),
      msg_type: 'text',
      content: { text: content }
    }, this.timeoutMs)
    const code = codeOf(answer.code) ?? codeOf(answer.StatusCode)
    if (code === null) throw new ProviderUnavailableError(this.name, 'webhook: no code in the answer')
    if (code !== 0) throw new ProviderRefusedError(this.name, String(code), str(answer.msg) || str(answer.StatusMessage) || `code ${code}`)
    return content
  }
}

export class WeComRobot implements Robot {
  readonly name = 'wecom' as const

  constructor (private readonly webhookUrl: string, private readonly timeoutMs = PROVIDER_TIMEOUT_MS) {}

  async send (text: string): Promise<string> {
    const content = robotText(text)
    const answer = await postJson(this.name, this.webhookUrl, { msgtype: 'text', text: { content } }, this.timeoutMs)
    const code = codeOf(answer.errcode)
    if (code === null) throw new ProviderUnavailableError(this.name, 'webhook: no errcode in the answer')
    if (code !== 0) throw new ProviderRefusedError(this.name, String(code), str(answer.errmsg) || `errcode ${code}`)
    return content
  }
}
