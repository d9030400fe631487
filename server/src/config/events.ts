/**
 * Launch-event reminders (domain/events.ts): the WeChat subscription message they are sent as, and how
 * often due ones are looked for.
 */
import { variable, type Problems, type Reader } from './env'

const TEMPLATE_ID = /^[A-Za-z0-9_-]{1,128}$/
const DEFAULT_KEYS = ['thing1', 'time2', 'thing3', 'thing4'] as const
const DEFAULT_RESTOCK_KEYS = ['thing1', 'time2', 'thing3'] as const

export const eventsVariables = {
  WECHAT_EVENT_TEMPLATE_ID: variable.text('The subscription message template chosen in the mini-program\'s console (needs WECHAT_APPID); unset: reminders go by mail only', { pattern: TEMPLATE_ID }),
  WECHAT_EVENT_TEMPLATE_KEYS: variable.text('The template\'s four keywords for the event\'s name, time, place and a note (comma-separated)', { default: DEFAULT_KEYS.join(',') }),
  WECHAT_RESTOCK_TEMPLATE_ID: variable.text('The subscription message template of "notify me when restocked" (needs WECHAT_APPID); unset: those go by mail only', { pattern: TEMPLATE_ID }),
  WECHAT_RESTOCK_TEMPLATE_KEYS: variable.text('That template\'s three keywords for the series\' name, the new drop\'s start and a note (comma-separated)', { default: DEFAULT_RESTOCK_KEYS.join(',') }),
  WECHAT_MINIPROGRAM_STATE: variable.oneOf(['formal', 'trial', 'developer'], 'Which version of the mini-program a reminder opens', 'formal'),
  EVENT_REMINDER_SWEEP_MS: variable.integer('How often due reminders are looked for, in milliseconds', 1000, 3_600_000, 60000)
}

export interface EventsConfig {
  /** WECHAT_EVENT_TEMPLATE_ID: the subscription message template (none: no WeChat reminders). */
  wechatTemplateId?: string
  /** WECHAT_EVENT_TEMPLATE_KEYS: the template's keywords for the title, the time, the venue and a note. */
  wechatTemplateKeys: [string, string, string, string]
  /** WECHAT_RESTOCK_TEMPLATE_ID: the template of "notify me when restocked" (none: by mail only). */
  restockTemplateId?: string
  /** WECHAT_RESTOCK_TEMPLATE_KEYS: its keywords for the series' name, the drop's start and a note (default thing1, time2, thing3). */
  restockTemplateKeys?: [string, string, string]
  /** WECHAT_MINIPROGRAM_STATE: which version of the mini-program a message opens. */
  miniProgramState: 'developer' | 'trial' | 'formal'
  /** EVENT_REMINDER_SWEEP_MS: how often due reminders are looked for. */
  sweepMs: number
}

/**
 * Launch-event reminders: WECHAT_EVENT_TEMPLATE_ID (the subscription message template chosen in the
 * mini-program's console; unset: reminders go by mail only), WECHAT_EVENT_TEMPLATE_KEYS (its four
 * keywords for the event's name, time, place and a note, as the console lists them; default
 * thing1,time2,thing3,thing4), WECHAT_MINIPROGRAM_STATE (formal, trial or developer: which version a
 * message opens) and EVENT_REMINDER_SWEEP_MS (how often due reminders are looked for; 60000). The same
 * for "notify me when restocked" (domain/events/restock.ts): WECHAT_RESTOCK_TEMPLATE_ID and
 * WECHAT_RESTOCK_TEMPLATE_KEYS (three keywords: the series' name, the new drop's start and a note).
 * `miniProgram`: whether WECHAT_APPID is set (the mini-program that sends the messages).
 */
export function parseEvents (env: Reader<keyof typeof eventsVariables>, miniProgram: boolean, problems: Problems): EventsConfig {
  const wechatTemplateId = env.get('WECHAT_EVENT_TEMPLATE_ID')
  if (wechatTemplateId !== undefined && !TEMPLATE_ID.test(wechatTemplateId)) problems.push('WECHAT_EVENT_TEMPLATE_ID must be the template id the mini-program console shows (letters, digits, - and _)')
  const keys = env.value('WECHAT_EVENT_TEMPLATE_KEYS').split(',').map(k => k.trim())
  if (keys.length !== 4 || !keys.every(k => /^[a-z_]+[0-9]+$/.test(k))) problems.push('WECHAT_EVENT_TEMPLATE_KEYS must be four keywords of the template, e.g. thing1,time2,thing3,thing4')
  const state = env.value('WECHAT_MINIPROGRAM_STATE')
  if (!['formal', 'trial', 'developer'].includes(state)) problems.push('WECHAT_MINIPROGRAM_STATE must be formal, trial or developer')
  const sweepRaw = env.value('EVENT_REMINDER_SWEEP_MS')
  const sweepMs = Number(sweepRaw)
  if (!Number.isInteger(sweepMs) || sweepMs < 1000 || sweepMs > 3_600_000) problems.push('EVENT_REMINDER_SWEEP_MS must be a whole number of milliseconds from 1000 to 3600000')
  if (wechatTemplateId && !miniProgram) problems.push('WECHAT_EVENT_TEMPLATE_ID needs WECHAT_APPID and WECHAT_SECRET (the mini-program that sends it)')
  const restockTemplateId = env.get('WECHAT_RESTOCK_TEMPLATE_ID')
  if (restockTemplateId !== undefined && !TEMPLATE_ID.test(restockTemplateId)) problems.push('WECHAT_RESTOCK_TEMPLATE_ID must be the template id the mini-program console shows (letters, digits, - and _)')
  if (restockTemplateId && !miniProgram) problems.push('WECHAT_RESTOCK_TEMPLATE_ID needs WECHAT_APPID and WECHAT_SECRET (the mini-program that sends it)')
  const restockKeys = env.value('WECHAT_RESTOCK_TEMPLATE_KEYS').split(',').map(k => k.trim())
  if (restockKeys.length !== 3 || !restockKeys.every(k => /^[a-z_]+[0-9]+$/.test(k))) problems.push('WECHAT_RESTOCK_TEMPLATE_KEYS must be three keywords of the template, e.g. thing1,time2,thing3')
  return {
    ...(wechatTemplateId ? { wechatTemplateId } : {}),
    ...(restockTemplateId ? { restockTemplateId } : {}),
    restockTemplateKeys: (restockKeys.length === 3 ? restockKeys : [...DEFAULT_RESTOCK_KEYS]) as [string, string, string],
    wechatTemplateKeys: (keys.length === 4 ? keys : [...DEFAULT_KEYS]) as EventsConfig['wechatTemplateKeys'],
    miniProgramState: state as EventsConfig['miniProgramState'],
    sweepMs: Number.isInteger(sweepMs) ? sweepMs : 60000
  }
}
