/**
 * The operators: the accounts made operators at start-up, and how they are told what happens (the
 * Feishu and WeCom robots, the complaint mailbox, the language of their alerts).
 */
import { EMAIL_ADDRESS, isUrl, variable, type Problems, type Reader } from './env'

const PHONE = /^1[3-9]\d{9}$/

export const operatorsVariables = {
  OPERATOR_ACCOUNTS: variable.text('Accounts made operators at every start: comma-separated user names, mainland mobile numbers or e-mail addresses'),
  FEISHU_WEBHOOK_URL: variable.url('A Feishu custom bot\'s webhook URL (operator alerts); needs FEISHU_WEBHOOK_SECRET'),
  FEISHU_WEBHOOK_SECRET: variable.text('The secret of the Feishu bot\'s signature check (签名校验)'),
  WECOM_WEBHOOK_URL: variable.url('A WeCom group robot\'s webhook URL with its key (operator alerts)'),
  COMPLAINT_MAILBOX: variable.text('Where complaints are mailed, and the only addresses a shopper may mail: comma-separated e-mail addresses'),
  ALERT_LANG: variable.oneOf(['zh', 'en'], 'The language of the operators\' alerts and complaint mails', 'zh')
}
type Name = keyof typeof operatorsVariables

/** An account named in OPERATOR_ACCOUNTS, by the kind of identifier it is. */
export interface OperatorAccount { kind: 'user_name' | 'phone' | 'email'; value: string }

/**
 * The operators' chat robots (operator alerts; /api/feishuRobotText, /api/wechatRobotText): a Feishu
 * custom bot with its signature secret, and a WeCom group robot (its webhook URL carries the key).
 */
export interface RobotsConfig {
  feishu?: { webhookUrl: string; secret: string }
  wecom?: { webhookUrl: string }
}

/**
 * OPERATOR_ACCOUNTS: a comma-separated list of accounts, each an e-mail address (has an @), a mainland
 * mobile number (11 digits, 1[3-9]..., +86 allowed) or else a user name. Blank entries are ignored;
 * control characters, an entry over 254 characters or a malformed address are refused.
 */
export function parseOperatorAccounts (env: Reader<Name>, problems: Problems): OperatorAccount[] {
  const raw = env.get('OPERATOR_ACCOUNTS')
  if (raw === undefined) return []
  const out: OperatorAccount[] = []
  for (const entry of raw.split(',').map(s => s.trim()).filter(Boolean)) {
    // eslint-disable-next-line no-control-regex
    if (entry.length > 254 || /[\u0000-\u001f\u007f]/.test(entry)) {
      problems.push(`OPERATOR_ACCOUNTS: "${entry.slice(0, 40)}" is not a user name, phone or e-mail address`)
      continue
    }
    if (entry.includes('@')) {
      if (!EMAIL_ADDRESS.test(entry)) problems.push(`OPERATOR_ACCOUNTS: "${entry}" is not a valid e-mail address`)
      else out.push({ kind: 'email', value: entry.toLowerCase() })
    } else if (PHONE.test(entry.replace(/^\+86/, ''))) {
      out.push({ kind: 'phone', value: entry.replace(/^\+86/, '') })
    } else {
      out.push({ kind: 'user_name', value: entry })
    }
  }
  return out
}

/**
 * FEISHU_WEBHOOK_URL with FEISHU_WEBHOOK_SECRET (the bot's signature check must be on: an unsigned
 * webhook would take anyone's text), and WECOM_WEBHOOK_URL (.../cgi-bin/webhook/send?key=...).
 */
export function parseRobots (env: Reader<Name>, problems: Problems): RobotsConfig {
  const out: RobotsConfig = {}
  const feishuUrl = env.get('FEISHU_WEBHOOK_URL')
  const feishuSecret = env.get('FEISHU_WEBHOOK_SECRET')
  if (feishuUrl && !isUrl(feishuUrl, ['http:', 'https:'])) problems.push('FEISHU_WEBHOOK_URL must be the bot\'s webhook URL (https://open.feishu.cn/open-apis/bot/v2/hook/...)')
  if (feishuUrl && !feishuSecret) problems.push('FEISHU_WEBHOOK_SECRET must be set with FEISHU_WEBHOOK_URL: turn on the bot\'s signature check (签名校验) and copy its secret')
  if (feishuSecret && !feishuUrl) problems.push('FEISHU_WEBHOOK_SECRET is set but FEISHU_WEBHOOK_URL is not')
  if (feishuUrl && feishuSecret && isUrl(feishuUrl, ['http:', 'https:'])) out.feishu = { webhookUrl: feishuUrl, secret: feishuSecret }
  const wecomUrl = env.get('WECOM_WEBHOOK_URL')
  if (wecomUrl) {
    if (!isUrl(wecomUrl, ['http:', 'https:']) || !new URL(wecomUrl).searchParams.get('key')) {
      problems.push('WECOM_WEBHOOK_URL must be the group robot\'s webhook URL with its key (https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=...)')
    } else {
      out.wecom = { webhookUrl: wecomUrl }
    }
  }
  return out
}

/** COMPLAINT_MAILBOX: comma-separated e-mail addresses (lower-cased). */
export function parseMailboxes (env: Reader<Name>, problems: Problems): string[] {
  const raw = env.get('COMPLAINT_MAILBOX')
  if (raw === undefined) return []
  const out: string[] = []
  for (const entry of raw.split(',').map(s => s.trim()).filter(Boolean)) {
    if (entry.length > 254 || !EMAIL_ADDRESS.test(entry)) problems.push(`COMPLAINT_MAILBOX: "${entry.slice(0, 60)}" is not an e-mail address`)
    else if (!out.includes(entry.toLowerCase())) out.push(entry.toLowerCase())
  }
  return out
}

/** ALERT_LANG: zh (default) or en, in any case. */
export function parseAlertLocale (env: Reader<Name>, problems: Problems): 'zh' | 'en' {
  const alertLang = env.value('ALERT_LANG').toLowerCase()
  if (alertLang !== 'zh' && alertLang !== 'en') problems.push(`ALERT_LANG must be zh or en (got "${alertLang}")`)
  return alertLang === 'en' ? 'en' : 'zh'
}
