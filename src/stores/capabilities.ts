import type { LoginSettings, ShopCapabilities } from '~types/accounts'
import { accountApi } from '@/services/account'
import { Signal } from './signal'
import { setWebDomains } from './webDomains'

/**
 * What this shop offers, from its public settings (GET /system/setting/login): the ways in, and which
 * optional shopper features have their provider (maps, tracking, market price, reading aloud, AI).
 * A page shows a feature only when it is known to work: until the answer arrives, and when it cannot
 * be had, the optional features count as off (nothing is shown that would then fail).
 * Followed through a Signal, not MobX: the login page reads it (src/stores/signal.ts).
 */
export class CapabilitiesStore {
  private readonly signal = new Signal('capabilities')
  private current: LoginSettings | null = null
  private pending: Promise<LoginSettings> | null = null

  get settings (): LoginSettings | null {
    this.signal.observe()
    return this.current
  }

  private put (settings: LoginSettings | null): void {
    this.current = settings
    // the business domains the web view may show (an older server sends none)
    setWebDomains(settings ? settings.webDomains ?? [] : null)
    this.signal.changed()
  }

  /** Whether a feature is known to be available (false until the settings have arrived). */
  has = (feature: keyof ShopCapabilities): boolean => {
    return this.settings?.capabilities?.[feature] === true
  }

  /** Whether the answer is in (a page may wait rather than flash a section). */
  get known (): boolean {
    return this.settings !== null
  }

  /** Asks the server again (the login page does, each time it opens). */
  refresh = (): Promise<LoginSettings> => {
    const asked = accountApi.loginSettings().then(s => {
      this.put(s)
      return s
    })
    this.pending = asked
    asked.catch(() => undefined).finally(() => { if (this.pending === asked) this.pending = null })
    return asked
  }

  /** Asks once: the settings already had, or the answer on its way. */
  ensure = (): Promise<LoginSettings> => {
    if (this.current) return Promise.resolve(this.current)
    return this.pending ?? this.refresh()
  }

  /** A call said the provider is gone (the server's configuration changed meanwhile): off from now on. */
  turnOff = (feature: keyof ShopCapabilities): void => {
    const s = this.current
    if (s) this.put({ ...s, capabilities: { ...s.capabilities, [feature]: false } })
  }

  clear = (): void => {
    this.put(null)
    this.pending = null
  }
}

export const capabilitiesStore = new CapabilitiesStore()
