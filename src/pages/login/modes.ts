/**
 * The login page's ways in: its tabs and the kinds of account one may sign up with, under the server's
 * login settings. Kept apart from the page so that the page's module holds components only (React Fast
 * Refresh updates such a module in place; one that also exports functions reloads the page).
 */
import type { LoginSettings } from '~types/accounts'
import type { MessageKey } from '@/locales/types'
import type { AccountKind, LoginMode } from '@/utils/validation'

export const TABS: { mode: LoginMode; label: MessageKey }[] = [
  { mode: 'password', label: 'login.tabPassword' },
  { mode: 'sms', label: 'login.tabSms' },
  { mode: 'email', label: 'login.tabEmail' }
]

export const REGISTER_BY: { kind: AccountKind; label: MessageKey }[] = [
  { kind: 'user_name', label: 'login.username' },
  { kind: 'phone', label: 'login.phone' },
  { kind: 'email', label: 'login.email' }
]

/** How one may sign up under the server's login settings: by phone only with SMS, by e-mail only with mail. */
export function registerKinds (settings: LoginSettings | null): AccountKind[] {
  return REGISTER_BY.map(x => x.kind).filter(k => k === 'user_name' || !settings || settings[k === 'phone' ? 'sms' : 'email'])
}

/** The tabs the server's login settings allow (all of them until the settings have arrived). */
export function visibleTabs (settings: LoginSettings | null): LoginMode[] {
  return TABS.map(x => x.mode).filter(m => !settings || settings[m === 'password' ? 'password' : m === 'sms' ? 'sms' : 'email'])
}
