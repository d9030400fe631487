/**
 * The map's shared pieces: spec 9's deep links per platform (WeChat, Android/Harmony, iOS, elsewhere),
 * the markers both builds draw (each with its icon: "Marker.iconPath is required"), the zoom limits,
 * and how distances and times read.
 */
import { amapNavigationUrl, mapAppLink, mapPlatform } from '@/utils/mapLinks'
import { ORIGIN_ID, checkMarkers, clampZoom, framePoints, markersOf } from '@/components/MapView/markers'
import { formatDistance, formatDuration, movedMetres } from '@/components/PickupPicker/routes'
import { localeStore } from '@/stores/locale'

const counter = { latitude: 39.98263, longitude: 116.31161, name: '拾盒 中关村店', address: '北京市海淀区中关村大街15号' }

describe('deep links (spec 9)', () => {
  test('the platform from the build and the browser', () => {
    expect(mapPlatform(false, 'anything')).toBe('miniProgram')
    expect(mapPlatform(true, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) MicroMessenger/8.0.44')).toBe('wechatBrowser')
    expect(mapPlatform(true, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1')).toBe('ios')
    expect(mapPlatform(true, 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile')).toBe('android')
    expect(mapPlatform(true, 'Mozilla/5.0 (Phone; OpenHarmony 4.1) ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0')).toBe('android')
    expect(mapPlatform(true, 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/120')).toBe('other')
  })

  test('each platform its link, with the name encoded and the coordinates as GCJ-02 degrees', () => {
    expect(mapAppLink(counter, 'ios')).toBe('https://maps.apple.com/?daddr=39.982630,116.311610&q=%E6%8B%BE%E7%9B%92%20%E4%B8%AD%E5%85%B3%E6%9D%91%E5%BA%97&dirflg=d')
    expect(mapAppLink(counter, 'android')).toBe('geo:39.982630,116.311610?q=39.982630,116.311610(%E6%8B%BE%E7%9B%92%20%E4%B8%AD%E5%85%B3%E6%9D%91%E5%BA%97)')
    // WeChat's browser opens no app scheme: AMap's page, which offers the app
    const amap = new URL(mapAppLink(counter, 'wechatBrowser'))
    expect(amap.origin + amap.pathname).toBe('https://uri.amap.com/navigation')
    // AMap's URI API takes longitude first
    expect(amap.searchParams.get('to')).toBe('116.311610,39.982630,拾盒 中关村店')
    expect(amap.searchParams.get('coordinate')).toBe('gaode')
    expect(amap.searchParams.get('callnative')).toBe('1')
    expect(mapAppLink(counter, 'other')).toBe(amapNavigationUrl(counter))
  })
})

describe('markers and zoom', () => {
  const points = [{ id: 3, latitude: 39.98, longitude: 116.31, title: 'A' }, { id: 5, latitude: 39.99, longitude: 116.33, title: 'B' }]

  test('every marker has its icon; the chosen one is the larger pin; the origin a dot with id 0', () => {
    const m = markersOf({ points, selectedId: 5, origin: { latitude: 39.97, longitude: 116.3 } })
    expect(m.map(x => [x.id, x.iconPath, x.width])).toEqual([[3, '/static/map/pin.png', 28], [5, '/static/map/pin-on.png', 34], [ORIGIN_ID, '/static/map/origin.png', 20]])
    expect(checkMarkers(m)).toBeNull()
    expect(checkMarkers([{ ...m[0], iconPath: '' }])).toBe('Marker.iconPath is required')
  })

  test('zoom stays within 5-18', () => {
    expect([1, 5, 11.4, 18, 22].map(clampZoom)).toEqual([5, 5, 11, 18, 18])
  })

  test('the view holds the route when there is one, else the origin and the chosen point (or the nearest five)', () => {
    const route = [{ latitude: 1, longitude: 2 }, { latitude: 3, longitude: 4 }]
    expect(framePoints({ points, route, origin: null })).toBe(route)
    expect(framePoints({ points, selectedId: 5, origin: { latitude: 39.97, longitude: 116.3 } })).toEqual([{ latitude: 39.97, longitude: 116.3 }, { latitude: 39.99, longitude: 116.33 }])
    expect(framePoints({ points, origin: null })).toHaveLength(2)
  })
})

describe('distances and times', () => {
  test('zh and en', () => {
    localeStore.setLocale('zh')
    expect([formatDistance(523), formatDistance(3456), formatDistance(36400)]).toEqual(['520 米', '3.5 公里', '36 公里'])
    expect([formatDuration(30), formatDuration(420), formatDuration(4800)]).toEqual(['约 1 分钟', '约 7 分钟', '约 1 小时 20 分钟'])
    localeStore.setLocale('en')
    expect([formatDistance(523), formatDistance(3456)]).toEqual(['520 m', '3.5 km'])
    expect(formatDuration(4800)).toBe('about 1 h 20 min')
  })

  test('a move is measured in metres (100 m north is about 100 m)', () => {
    const m = movedMetres({ latitude: 39.98, longitude: 116.3 }, { latitude: 39.98 + 100 / 111320, longitude: 116.3 })
    expect(Math.round(m)).toBe(100)
  })
})
