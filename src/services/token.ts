import Taro from '@tarojs/taro'
import { TOKEN_KEY } from '@/constants'

type Listener = (token: string) => void
const listeners = new Set<Listener>()

/** The session token, kept in storage under `h5_token` (spec 4, 9). */
export const tokenStorage = {
  get (): string {
    try {
      const v = Taro.getStorageSync(TOKEN_KEY)
      return typeof v === 'string' ? v : ''
    } catch {
      return ''
    }
  },
  set (token: string): void {
    Taro.setStorageSync(TOKEN_KEY, token)
    listeners.forEach(l => l(token))
  },
  clear (): void {
    try { Taro.removeStorageSync(TOKEN_KEY) } catch { /* storage unavailable: nothing to clear */ }
    listeners.forEach(l => l(''))
  },
  /** Called with the new token ('' when cleared); returns the unsubscribe function. */
  subscribe (l: Listener): () => void {
    listeners.add(l)
    return () => { listeners.delete(l) }
  }
}
