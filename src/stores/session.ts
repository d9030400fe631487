import { makeAutoObservable, runInAction } from 'mobx'
import type { LoginResult, UserInfo } from '~types/accounts'
import { tokenStorage } from '@/services/token'
import { accountApi } from '@/services/account'
import { forgetSilentLogin } from '@/utils/wechatBrowser'

/** Who is logged in. The token lives in storage under h5_token; the client clears it on 401/403. */
export class SessionStore {
  token: string = tokenStorage.get()
  user: UserInfo | null = null
  restoring = false

  constructor () {
    makeAutoObservable(this, {}, { autoBind: true })
    tokenStorage.subscribe(token => runInAction(() => {
      this.token = token
      if (!token) this.user = null
    }))
  }

  get loggedIn (): boolean { return !!this.token }

  get displayName (): string {
    const u = this.user
    return u ? (u.nickname || u.userName || u.phone || u.email || `#${u.id}`) : ''
  }

  /** Store a fresh login (token persisted under h5_token). */
  login (result: LoginResult): void {
    tokenStorage.set(result.token)
    this.user = result.user
  }

  setUser (user: UserInfo | null): void {
    this.user = user
  }

  /** At launch: a stored token restores the session through getUserInfo. */
  async restore (): Promise<boolean> {
    if (!this.token) return false
    this.restoring = true
    try {
      const user = await accountApi.userInfo()
      runInAction(() => { this.user = user })
      return true
    } catch {
      return false
    } finally {
      runInAction(() => { this.restoring = false })
    }
  }

  /** Ends the session on the server (best effort) and always locally. */
  async logout (): Promise<void> {
    try {
      if (this.token) await accountApi.logout()
    } catch {
      /* the token is dropped locally whatever the server says */
    } finally {
      this.clear()
      // logged out on purpose: WeChat's browser does not log them back in by itself
      forgetSilentLogin()
    }
  }

  clear (): void {
    tokenStorage.clear()
    this.user = null
  }
}

export const sessionStore = new SessionStore()
