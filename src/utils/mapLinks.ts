/**
 * "Open in map app" (spec 9: the map deep links differ for WeChat, Android/Harmony and iOS), for a
 * destination in GCJ-02 (the coordinates both Chinese map providers and WeChat use).
 *  - The mini-program: WeChat's own map (Taro.openLocation), which offers the phone's map apps.
 *  - H5 inside WeChat's browser: it opens no app scheme from a page, so AMap's URI API page
 *    (uri.amap.com/navigation), which offers to open the AMap app or routes on the web.
 *  - H5 on iOS: Apple Maps (maps.apple.com/?daddr=...; in mainland China its map data is AMap's, in
 *    GCJ-02).
 *  - H5 on Android and HarmonyOS: a geo: URI, which the system hands to the map app the user has
 *    (AMap, Baidu, Tencent and Petal Maps all take it).
 *  - Anywhere else (a desktop browser): AMap's URI API page.
 */
import Taro from '@tarojs/taro'
import { isH5 } from '@/config'
import { MAP_ZOOM_DEFAULT } from '@/constants'

export interface MapDestination {
  latitude: number
  longitude: number
  name: string
  address: string
}

export type MapPlatform = 'miniProgram' | 'wechatBrowser' | 'ios' | 'android' | 'other'

/** Which of spec 9's link kinds this device takes. */
export function mapPlatform (h5: boolean, userAgent: string): MapPlatform {
  if (!h5) return 'miniProgram'
  if (/MicroMessenger/i.test(userAgent)) return 'wechatBrowser'
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios'
  if (/Android|HarmonyOS|OpenHarmony/i.test(userAgent)) return 'android'
  return 'other'
}

const fixed = (n: number) => n.toFixed(6)

/** AMap's URI API: driving navigation to the point, opening the AMap app when it is installed (callnative=1). */
export function amapNavigationUrl (d: MapDestination): string {
  const to = `${fixed(d.longitude)},${fixed(d.latitude)},${encodeURIComponent(d.name)}`
  return `https://uri.amap.com/navigation?to=${to}&mode=car&policy=1&coordinate=gaode&callnative=1&src=shihe`
}

/** The H5 link for a platform (the mini-program opens WeChat's map instead: openInMapApp). */
export function mapAppLink (d: MapDestination, platform: Exclude<MapPlatform, 'miniProgram'>): string {
  const at = `${fixed(d.latitude)},${fixed(d.longitude)}`
  switch (platform) {
    case 'ios': return `https://maps.apple.com/?daddr=${at}&q=${encodeURIComponent(d.name)}&dirflg=d`
    case 'android': return `geo:${at}?q=${at}(${encodeURIComponent(d.name)})`
    default: return amapNavigationUrl(d)
  }
}

/** Opens the destination in a map app, the way this platform allows. */
export async function openInMapApp (d: MapDestination): Promise<void> {
  if (!isH5()) {
    await Taro.openLocation({ latitude: d.latitude, longitude: d.longitude, name: d.name, address: d.address, scale: MAP_ZOOM_DEFAULT })
    return
  }
  const platform = mapPlatform(true, typeof navigator === 'undefined' ? '' : navigator.userAgent)
  window.location.href = mapAppLink(d, platform === 'miniProgram' ? 'other' : platform)
}
