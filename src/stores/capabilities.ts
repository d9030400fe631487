import { makeAutoObservable, runInAction } from 'mobx'
import type { LoginSettings, ShopCapabilities } from '~types/accounts'
import { accountApi } from '@/services/account'

/**
 * What this shop offers, from its public settings (GET /system/setting/login): the ways in, and which
 * optional shopper features have their provider (maps, tracking, market price, reading aloud, AI).
 * A page shows a feature only when it is known to work: until the answer arrives, and when it cannot
 * be had, the optional features count as off (nothing is shown that would then fail).
 */
export class CapabilitiesStore {
  settings: LoginSettings | null = null
  private pending: Promise<LoginSettings> | null = null

  constructor () {
    makeAutoObservable<CapabilitiesStore, 'pending'>(this, { pending: false }, { autoBind: true })
  }

  /** Whether a feature is known to be available (false until the settings have arrived). */
  has (feature: keyof ShopCapabilities): boolean {
    return this.settings?.capabilities?.[feature] === true
  }

  /** Whether the answer is in (a page may wait rather than flash a section). */
  get known (): boolean {
    return this.settings !== null
  }

  /** Asks the server again (the login page does, each time it opens). */
  refresh (): Promise<LoginSettings> {
    const asked = accountApi.loginSettings().then(s => {
      runInAction(() => { this.settings = s })
      return s
    })
    this.pending = asked
    asked.catch(() => undefined).finally(() => { if (this.pending === asked) this.pending = null })
    return asked
  }

  /** Asks once: the settings already had, or the answer on its way. */
  ensure (): Promise<LoginSettings> {
    if (this.settings) return Promise.resolve(this.settings)
    return this.pending ?? this.refresh()
  }

  /** A call said the provider is gone (the server's configuration changed meanwhile): off from now on. */
  turnOff (feature: keyof ShopCapabilities): void {
    if (this.settings) this.settings = { ...this.settings, capabilities: { ...this.settings.capabilities, [feature]: false } }
  }

  clear (): void {
    this.settings = null
    this.pending = null
  }
}

export const capabilitiesStore = new CapabilitiesStore()
