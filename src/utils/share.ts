/**
 * Sharing a page and opening it in WeChat (issue 24 item 4: /get_mp_url; spec 8's "unsupported share
 * type").
 *  - 'wechat': the mini-program's own share card (a Button with openType="share": PageShell's
 *    useShareAppMessage gives its title, path and picture). Mini-program only.
 *  - 'miniProgram': H5 outside WeChat: a URL link of WeChat's (POST /get_mp_url) that opens this page
 *    in the mini-program, handed to the phone's share sheet, else copied. Needs the shop's mini-program.
 *  - 'link': H5: the page's own address, to the share sheet, else copied.
 * Any other type, or one this platform has not, rejects with "unsupported share type" in the user's
 * language, and nothing is shared.
 */
import Taro from '@tarojs/taro'
import { isH5 } from '@/config'
import { accountApi } from '@/services/account'
import { t } from '@/stores/locale'
import { currentRoute } from '@/utils/navigation'

export type ShareType = 'wechat' | 'miniProgram' | 'link'

export class ShareError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'ShareError'
  }
}

/** What a sharing of `type` needs that this platform lacks (null: it can). */
export function shareUnsupported (type: string, platform: { h5: boolean; miniProgram: boolean }): boolean {
  switch (type) {
    case 'wechat': return platform.h5
    case 'miniProgram': return !platform.h5 || !platform.miniProgram
    case 'link': return !platform.h5
    default: return true
  }
}

/** The mini-program path and query of the page on top (its H5 address has the same path). */
export function miniProgramTarget (): { path: string; query: string } {
  const { path, query } = currentRoute()
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')).toString()
  return { path: path.replace(/^\//, ''), query: q }
}

/** A URL link that opens the page on top in the mini-program (WeChat's, valid 30 days). */
export async function miniProgramLink (): Promise<string> {
  const { path, query } = miniProgramTarget()
  return (await accountApi.mpUrl({ path, ...(query ? { query } : {}) })).url
}

/** Hands a link to the phone's share sheet; where there is none (or it is refused), copies it. Answers what happened. */
async function handOver (title: string, url: string): Promise<'shared' | 'copied'> {
  const nav = typeof navigator === 'undefined' ? undefined : navigator as Navigator & { share?: (d: ShareData) => Promise<void> }
  if (nav?.share) {
    try {
      await nav.share({ title, url })
      return 'shared'
    } catch (e) {
      // the user closed the sheet: nothing to do
      if ((e as { name?: string })?.name === 'AbortError') return 'shared'
    }
  }
  await Taro.setClipboardData({ data: url })
  return 'copied'
}

/** Shares the page on top as `type`; rejects with ShareError("unsupported share type") where it cannot. */
export async function sharePage (type: string, title: string, platform = { h5: isH5(), miniProgram: false }): Promise<'shared' | 'copied'> {
  if (shareUnsupported(type, platform)) throw new ShareError(t('share.unsupported'))
  if (type === 'miniProgram') return handOver(title, await miniProgramLink())
  return handOver(title, typeof location === 'undefined' ? '' : location.href)
}
