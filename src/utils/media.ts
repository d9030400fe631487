import Taro from '@tarojs/taro'
import { MEDIA_WIDTHS } from '~types/limits'
import { getConfig } from '@/config'

/** The design's page width (config/index.ts designWidth): style sheets size images in these pixels. */
const DESIGN_WIDTH = 750

/** The screen's width in CSS pixels and its device pixels per CSS pixel. */
function screen (): { width: number, ratio: number } {
  if (process.env.TARO_ENV === 'h5') {
    if (typeof window === 'undefined') return { width: 375, ratio: 2 }
    return { width: document.documentElement.clientWidth || window.innerWidth || 375, ratio: window.devicePixelRatio > 0 ? window.devicePixelRatio : 1 }
  } else {
    // https://developers.weixin.qq.com/miniprogram/dev/api/base/system/wx.getWindowInfo.html (base library 2.20.1)
    try {
      const info = Taro.getWindowInfo()
      return { width: info.windowWidth || 375, ratio: info.pixelRatio || 2 }
    } catch {
      return { width: 375, ratio: 2 }
    }
  }
}

/** Device pixels wide an image shown `shownAt` design pixels wide needs on this screen, as a served width. */
export function mediaWidth (shownAt: number): number {
  const { width, ratio } = screen()
  const asked = Math.ceil(shownAt / DESIGN_WIDTH * width * ratio)
  return MEDIA_WIDTHS.find(w => w >= asked) ?? MEDIA_WIDTHS[MEDIA_WIDTHS.length - 1]
}

/**
 * Where images the server names live. A path like /media/art/x.webp is served by the API server's
 * origin: the page's own origin on H5 (relative API base), the API base's origin in the mini-program.
 * `shownAt`, the width the page shows the image at in design pixels (as the style sheet says), asks the
 * server for a copy scaled to the screen (GET /media/...?w=): a list of series fetches thumbnails, not
 * the operators' photos.
 */
export function mediaUrl (path: string | null | undefined, shownAt?: number): string {
  if (!path) return ''
  if (/^https?:\/\//i.test(path)) return path
  const sized = shownAt && /^\/media\/(u|art)\/[^?#]+\.(png|jpg|webp)$/.test(path) ? `${path}?w=${mediaWidth(shownAt)}` : path
  const m = /^(https?:\/\/[^/]+)/i.exec(getConfig().apiBase)
  return m ? `${m[1]}${sized}` : sized
}
