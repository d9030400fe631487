/**
 * Group chat robots that alert the shop's operators (PRODUCT.md "Protecting shoppers", spec 7
 * /api/feishuRobotText and /api/wechatRobotText). Both take one text; line breaks become spaces (spec).
 *
 *  - Feishu (Lark) custom bot: POST the webhook URL with JSON {timestamp, sign, msg_type: 'text',
 *    content: {text}}, where (signature verification on) sign = base64(HMAC-SHA256 with the key
 *    `${timestamp}\n${secret}` over an empty message), timestamp in seconds. It answers {code: 0, msg}
 *    (older bots {StatusCode: 0, StatusMessage}); anything else is a refusal (19021 a bad signature,
 *    19024 an IP not allowed, 9499 a bad body ...).
 *  - WeCom (企业微信) group robot: POST the webhook URL (its key in the query) with JSON
 *    {msgtype: 'text', text: {content}}; it answers {errcode: 0, errmsg: 'ok'}, else a refusal (93000 an
 *    invalid webhook key, 45009 over the rate limit of 20 a minute ...).
 */
import { createHmac } from 'node:crypto'
import type { Clock } from '../clock'
import { ProviderRefusedError, PROVIDER_TIMEOUT_MS } from './errors'
import { fetchJson, num, str } from './http'

/** What a robot says: one line (the spec turns line breaks into spaces), at most 4,000 characters. */
export function robotText (text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ').slice(0, 4000)
}

export interface Robot {
  readonly name: 'feishu' | 'wecom'
  send (text: string): Promise<void>
}

/** Feishu's documented signature of a webhook call. */
export function feishuSign (timestampSeconds: number, secret: string): string {
  return createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64')
}

export class FeishuRobot implements Robot {
  readonly name = 'feishu' as const
  constructor (private readonly webhookUrl: string, private readonly secret: string | null, private readonly clock: Clock, private readonly timeoutMs = PROVIDER_TIMEOUT_MS) {}

  async send (text: string): Promise<void> {
    const timestamp = Math.floor(this.clock() / 1000)
    const body = {
      ...(this.secret ? { timestamp: String(timestamp), sign: feishuSign(timestamp, this.secret) } : {}),
      msg_type: 'text',
      content: { text: robotText(text) }
    }
    const answer = await fetchJson('feishu', new URL(this.webhookUrl), {
      method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body)
    }, this.timeoutMs)
    const code = answer.code !== undefined ? num(answer.code) : num(answer.StatusCode)
    if (code !== 0) throw new ProviderRefusedError('feishu', str(answer.code ?? answer.StatusCode) || '?', str(answer.msg ?? answer.StatusMessage) || 'refused')
  }
}

export class WeComRobot implements Robot {
  readonly name = 'wecom' as const
  constructor (private readonly webhookUrl: string, private readonly timeoutMs = PROVIDER_TIMEOUT_MS) {}

  async send (text: string): Promise<void> {
    const answer = await fetchJson('wecom', new URL(this.webhookUrl), {
      method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ msgtype: 'text', text: { content: robotText(text) } })
    }, this.timeoutMs)
    if (num(answer.errcode) !== 0) throw new ProviderRefusedError('wecom', str(answer.errcode) || '?', str(answer.errmsg) || 'refused')
  }
}
