import type { LoginResult, UserInfo } from '~types/accounts'
import { tokenStorage } from '@/services/token'
import { accountApi } from '@/services/account'
import { forgetSilentLogin } from '@/utils/wechatBrowser'
import { Signal } from './signal'
import { maskPhone } from '@/utils/format'

/**
 * Who is logged in. The token lives in storage under h5_token; the client clears it on 401/403.
 * Followed through a Signal, not MobX: every first page reads it (src/stores/signal.ts).
 */
export class SessionStore {
  private readonly signal = new Signal('session')
  private state: { token: string; user: UserInfo | null; restoring: boolean } = { token: tokenStorage.get(), user: null, restoring: false }

  constructor () {
    tokenStorage.subscribe(token => this.update({ token, ...(token ? {} : { user: null }) }))
  }

  private update (change: Partial<SessionStore['state']>): void {
    this.state = { ...this.state, ...change }
    this.signal.changed()
  }

  private read (): SessionStore['state'] {
    this.signal.observe()
    return this.state
  }

  get token (): string { return this.read().token }
  get user (): UserInfo | null { return this.read().user }
  /** The stored token is being checked with the server (at launch). */
  get restoring (): boolean { return this.read().restoring }

  get loggedIn (): boolean { return !!this.token }

  get displayName (): string {
    const u = this.user
    return u ? (u.nickname || u.userName || maskPhone(u.phone) || u.email || `#${u.id}`) : ''
  }

  /** Store a fresh login (token persisted under h5_token). */
  login = (result: LoginResult): void => {
    tokenStorage.set(result.token)
    this.update({ user: result.user })
  }

  setUser = (user: UserInfo | null): void => {
    this.update({ user })
  }

  /** At launch: a stored token restores the session through getUserInfo. */
  restore = async (): Promise<boolean> => {
    if (!this.state.token) return false
    this.update({ restoring: true })
    try {
      const user = await accountApi.userInfo()
      this.update({ user })
      return true
    } catch {
      return false
    } finally {
      this.update({ restoring: false })
    }
  }

  /** Ends the session on the server (best effort) and always locally. */
  logout = async (): Promise<void> => {
    try {
      if (this.state.token) await accountApi.logout()
    } catch {
      /* the token is dropped locally whatever the server says */
    } finally {
      this.clear()
      // logged out on purpose: WeChat's browser does not log them back in by itself
      forgetSilentLogin()
    }
  }

  clear = (): void => {
    tokenStorage.clear()
    this.update({ user: null })
  }
}

export const sessionStore = new SessionStore()
