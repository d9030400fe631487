/**
 * AddressLocator and TrackingTimeline (issue 8) rendered in jsdom: locating, the IP fallback, the
 * debounced search and picking a place; a shop without maps (its public capabilities) showing only
 * the fields to type, and a provider gone meanwhile keeping the form usable by hand; the parcel timeline
 * newest first, its fallback to carrier + number with a copy button (not even asked for without
 * tracking). A shopper reads no configuration words in any of these.
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import AddressLocator from '@/components/AddressLocator'
import { parseRegion, placeDetail, regionText } from '@/components/AddressLocator/region'
import TrackingTimeline from '@/components/TrackingTimeline'
import { geoApi } from '@/services/geo'
import { expressApi } from '@/services/express'
import { ApiError } from '@/services/errors'
import { localeStore } from '@/stores/locale'
import { capabilitiesStore } from '@/stores/capabilities'
import { accountApi } from '@/services/account'
import type { LoginSettings, ShopCapabilities } from '~types/accounts'
import { configWordIn } from '../support/configWords'
import { SEARCH_DEBOUNCE_MS } from '@/constants'
import type { Place, ReverseGeocode } from '~types/geo'
import type { ExpressTrack } from '~types/express'

const text = (c: HTMLElement) => c.textContent || ''
const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const notConfigured = (provider: string) => new ApiError(422, `${provider} is not configured`, { provider })

/** Types into a Taro Input (H5: a custom element that emits input events with detail.value). */
function type (el: Element, value: string) {
  fireEvent(el, new CustomEvent('input', { detail: { value }, bubbles: true }))
}

const REVERSE: ReverseGeocode = {
  latitude: 39.984154, longitude: 116.30749, address: '北京市海淀区北四环西路66号', recommend: '海淀区中关村中国技术交易大厦',
  region: { province: '北京市', city: '北京市', district: '海淀区' }, detail: '北四环西路66号',
  street: '北四环西路', streetNumber: '北四环西路66号', adcode: '110108', nation: '中国'
}
const PLACE: Place = {
  id: 'p1', title: '中关村广场购物中心', address: '北京市海淀区中关村大街15号', category: '购物:综合商场',
  latitude: 39.98263, longitude: 116.31161, distance: 420, region: { province: '北京市', city: '北京市', district: '海淀区' }, adcode: '110108'
}

const consoleError = console.error.bind(console)
beforeEach(() => {
  // jsdom never renders Taro's <input> inside taro-input-core, whose value watcher then reads
  // `undefined.value` when React sets a new value: that one complaint is jsdom's, not the component's
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes("reading 'value'") && String((args[0] as Error)?.stack).includes('taro-input-core')) return
    consoleError(...args)
  })
  localeStore.setLocale('en')
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  shop({})
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); jest.useRealTimers(); capabilitiesStore.clear() })

/** The shop's public settings as GET /system/setting/login answers them: every optional feature on unless turned off here. */
function shop (off: Partial<ShopCapabilities>) {
  const settings: LoginSettings = {
    password: true, sms: true, email: true, wechat: false, weapp: false, register: true,
    capabilities: { maps: true, tracking: true, priceCompare: true, speech: true, ai: true, ...off }
  }
  capabilitiesStore.clear()
  return jest.spyOn(accountApi, 'loginSettings').mockResolvedValue(settings)
}
const settle = () => act(async () => { for (let i = 0; i < 5; i++) await Promise.resolve() })

describe('AddressLocator helpers', () => {
  test('region text and back; a place detail without its region', () => {
    expect(regionText({ province: '北京市', city: '北京市', district: '海淀区' })).toBe('北京市 海淀区')
    expect(regionText({ province: '广东省', city: '深圳市', district: '福田区' })).toBe('广东省 深圳市 福田区')
    expect(parseRegion('北京市 海淀区')).toEqual({ province: '北京市', city: '北京市', district: '海淀区' })
    expect(parseRegion('广东省，深圳市 福田区')).toEqual({ province: '广东省', city: '深圳市', district: '福田区' })
    expect(placeDetail(PLACE)).toBe('中关村大街15号 中关村广场购物中心')
    expect(placeDetail({ ...PLACE, address: '北京市海淀区中关村大街15号中关村广场购物中心' })).toBe('中关村大街15号中关村广场购物中心')
  })
})

describe('AddressLocator', () => {
  test('"Use my location": the device position, the geocoder, region and detail filled, onPick', async () => {
    jest.spyOn(Taro, 'getLocation').mockResolvedValue({ latitude: 39.9826, longitude: 116.3014, speed: 0, altitude: 0, accuracy: 20, horizontalAccuracy: 20, verticalAccuracy: 0, errMsg: 'ok' } as never)
    const geocoder = jest.spyOn(geoApi, 'geocoder').mockResolvedValue(REVERSE)
    const onPick = jest.fn()
    const { container } = render(<AddressLocator onPick={onPick} />)
    // the map's buttons once the shop's capabilities are known (not before: they may be off)
    expect(container.querySelector('.address-locator__locate')).toBeNull()
    await settle()
    expect(text(container)).toContain('Use my location')
    await act(async () => { fireEvent.click(container.querySelector('.address-locator__locate')!) })
    expect(geocoder).toHaveBeenCalledWith(expect.stringMatching(/^39\.98\d+,116\.30\d+$/))
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ region: REVERSE.region, detail: '北四环西路66号' }))
    const inputs = container.querySelectorAll('.address-locator__input')
    expect(inputs[0].getAttribute('value')).toBe('北京市 海淀区')
    expect(inputs[1].getAttribute('value')).toBe('北四环西路66号')
    expect(text(container)).toContain('Filled in from your location')
  })

  test('location refused: the IP location centre, marked approximate', async () => {
    localeStore.setLocale('zh')
    jest.spyOn(Taro, 'getLocation').mockRejectedValue({ errMsg: 'getLocation:fail auth deny' } as never)
    jest.spyOn(geoApi, 'amapIpLocation').mockResolvedValue({ ip: '1.1.1.1', province: '北京市', city: '北京市', adcode: '', rectangle: '116.2,39.8;116.6,40.2', source: 'offline' })
    const geocoder = jest.spyOn(geoApi, 'geocoder').mockResolvedValue(REVERSE)
    const onPick = jest.fn()
    const { container } = render(<AddressLocator onPick={onPick} />)
    await settle()
    await act(async () => { fireEvent.click(container.querySelector('.address-locator__locate')!) })
    expect(geocoder).toHaveBeenCalledWith(expect.stringMatching(/^40(\.0+\d*)?,116\.4\d*$/))
    expect(onPick).toHaveBeenCalled()
    expect(text(container)).toContain('按网络位置估算')
  })

  test('a shop without maps: no locate button and no search, only the fields to type; no configuration words', async () => {
    for (const lang of ['zh', 'en'] as const) {
      localeStore.setLocale(lang)
      shop({ maps: false })
      const geocoder = jest.spyOn(geoApi, 'geocoder')
      const onChange = jest.fn()
      const { container, unmount } = render(<AddressLocator onPick={jest.fn()} onChange={onChange} />)
      await settle()
      expect(container.querySelector('.address-locator__locate')).toBeNull()
      expect(container.querySelector('.address-locator__search-input')).toBeNull()
      expect(configWordIn(text(container))).toBeNull()
      const [region, detail] = Array.from(container.querySelectorAll('.address-locator__input'))
      await act(async () => { type(region, '广东省 深圳市 福田区') })
      await act(async () => { type(detail, '福中三路1号') })
      expect(onChange).toHaveBeenLastCalledWith({ region: { province: '广东省', city: '深圳市', district: '福田区' }, detail: '福中三路1号' })
      expect(geocoder).not.toHaveBeenCalled()
      unmount()
    }
    // a page opened after the answer is in starts without them (no flash of a button that would fail)
    const { container } = render(<AddressLocator onPick={jest.fn()} />)
    expect(container.querySelector('.address-locator__locate')).toBeNull()
  })

  test('maps gone since the shop said it had them: says plainly what to do; the search goes away; region and detail stay editable by hand', async () => {
    localeStore.setLocale('zh')
    jest.spyOn(Taro, 'getLocation').mockResolvedValue({ latitude: 39.9, longitude: 116.3, speed: 0, altitude: 0, accuracy: 20, horizontalAccuracy: 20, verticalAccuracy: 0, errMsg: 'ok' } as never)
    jest.spyOn(geoApi, 'geocoder').mockRejectedValue(notConfigured('tencentMap'))
    const onPick = jest.fn()
    const onChange = jest.fn()
    const { container } = render(<AddressLocator onPick={onPick} onChange={onChange} />)
    await settle()
    expect(container.querySelector('.address-locator__search-input')).not.toBeNull()
    await act(async () => { fireEvent.click(container.querySelector('.address-locator__locate')!) })
    expect(text(container)).toContain('请手动填写所在地区和详细地址')
    expect(configWordIn(text(container))).toBeNull()
    expect(container.querySelector('.address-locator__search-input')).toBeNull()
    expect(capabilitiesStore.has('maps')).toBe(false)
    expect(onPick).not.toHaveBeenCalled()
    const [region, detail] = Array.from(container.querySelectorAll('.address-locator__input'))
    await act(async () => { type(region, '广东省 深圳市 福田区') })
    await act(async () => { type(detail, '福中三路1号') })
    expect(onChange).toHaveBeenLastCalledWith({ region: { province: '广东省', city: '深圳市', district: '福田区' }, detail: '福中三路1号' })
  })

  test('the search waits 1000 ms after typing, lists places, and picking one fills the form', async () => {
    jest.useFakeTimers()
    const geoaddress = jest.spyOn(geoApi, 'geoaddress').mockResolvedValue({
      latitude: 39.98, longitude: 116.31, title: '中关村', region: PLACE.region, detail: '中关村大街', street: '中关村大街', streetNumber: '', adcode: '110108', reliability: 7, level: 9
    })
    const mapsearch = jest.spyOn(geoApi, 'mapsearch').mockResolvedValue({ list: [PLACE], total: 1 })
    const onPick = jest.fn()
    const { container } = render(<AddressLocator onPick={onPick} />)
    await settle()
    const search = container.querySelector('.address-locator__search-input')!
    await act(async () => { type(search, '中关') })
    await act(async () => { jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 100) })
    await act(async () => { type(search, '中关村') })
    await act(async () => { jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1) })
    expect(geoaddress).not.toHaveBeenCalled()
    await act(async () => { jest.advanceTimersByTime(1) })
    await act(async () => { await Promise.resolve() })
    expect(geoaddress).toHaveBeenCalledTimes(1)
    expect(geoaddress).toHaveBeenCalledWith('中关村')
    expect(mapsearch).toHaveBeenCalledWith({ boundary: 'nearby(39.98,116.31,50000)', keyword: '中关村', pageSize: 20 })
    const rows = container.querySelectorAll('.address-locator__place')
    expect(rows).toHaveLength(2)
    expect(text(rows[1] as HTMLElement)).toContain('中关村广场购物中心')
    expect(text(rows[1] as HTMLElement)).toContain('420 m')
    await act(async () => { fireEvent.click(rows[1]) })
    expect(onPick).toHaveBeenCalledWith({ region: PLACE.region, detail: '中关村大街15号 中关村广场购物中心', latitude: PLACE.latitude, longitude: PLACE.longitude })
    expect(container.querySelectorAll('.address-locator__place')).toHaveLength(0)
  })
})

describe('AddressLocator with AMap (the shop chose MAP_PROVIDER=amap)', () => {
  test('"use my location" asks AMap\'s regeocode and the search AMap\'s geocoder; Tencent is not asked', async () => {
    shop({ mapProvider: 'amap' })
    await capabilitiesStore.refresh()
    jest.spyOn(Taro, 'getLocation').mockResolvedValue({ latitude: 39.9826, longitude: 116.3014, speed: 0, altitude: 0, accuracy: 20, horizontalAccuracy: 20, verticalAccuracy: 0, errMsg: 'ok' } as never)
    const tencent = [jest.spyOn(geoApi, 'geocoder'), jest.spyOn(geoApi, 'mapsearch'), jest.spyOn(geoApi, 'geoaddress')]
    const regeo = jest.spyOn(geoApi, 'amapRegeocode').mockResolvedValue({
      formattedAddress: '北京市海淀区中关村街道北四环西路66号', region: REVERSE.region, detail: '北四环西路66号', township: '中关村街道', street: '北四环西路', streetNumber: '66号', adcode: '110108'
    })
    const geo = jest.spyOn(geoApi, 'amapGeo').mockResolvedValue({ list: [{ formattedAddress: '北京市海淀区中关村大街15号', region: PLACE.region, adcode: '110108', latitude: 39.98263, longitude: 116.31161, level: '门牌号' }] })
    const onPick = jest.fn()
    const { container } = render(<AddressLocator onPick={onPick} />)
    await act(async () => { fireEvent.click(container.querySelector('.address-locator__locate')!) })
    expect(regeo).toHaveBeenCalledWith({ latitude: expect.closeTo(39.98, 1), longitude: expect.closeTo(116.3, 1) })
    expect(onPick).toHaveBeenLastCalledWith(expect.objectContaining({ detail: '北四环西路66号' }))
    jest.useFakeTimers()
    await act(async () => { type(container.querySelector('.address-locator__search-input')!, '中关村大街15号') })
    await act(async () => { jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS) })
    await act(async () => { await Promise.resolve() })
    expect(geo).toHaveBeenCalledWith({ address: '中关村大街15号' })
    const rows = container.querySelectorAll('.address-locator__place')
    expect(rows).toHaveLength(1)
    await act(async () => { fireEvent.click(rows[0]) })
    expect(onPick).toHaveBeenLastCalledWith(expect.objectContaining({ latitude: 39.98263, longitude: 116.31161 }))
    for (const spy of tencent) expect(spy).not.toHaveBeenCalled()
  })
})

describe('TrackingTimeline', () => {
  const TRACK: ExpressTrack = {
    com: 'zhongtong', num: '75312345678901', state: '3', delivered: true,
    events: [
      { time: '2026-02-27 14:40:00', context: '【北京市】 快件已签收', status: '签收', location: '北京市' },
      { time: '2026-02-25 10:00:00', context: '【广州市】 快件已揽收', status: '揽收', location: '广州市' }
    ]
  }

  test('the events newest first, the state, carrier and number', async () => {
    localeStore.setLocale('zh')
    const inquiry = jest.spyOn(expressApi, 'inquiry').mockResolvedValue(TRACK)
    const { container } = render(<TrackingTimeline com='zhongtong' num='75312345678901' />)
    await settle()
    expect(inquiry).toHaveBeenCalledWith({ com: 'zhongtong', num: '75312345678901' })
    expect(text(container)).toContain('中通快递')
    expect(text(container)).toContain('已签收')
    const events = container.querySelectorAll('.tracking__event')
    expect(events).toHaveLength(2)
    expect(text(events[0] as HTMLElement)).toContain('快件已签收')
    expect(events[0].className).toContain('tracking__event--latest')
  })

  test('a shop without tracking: not asked; carrier and number with a copy button (Taro.setClipboardData)', async () => {
    shop({ tracking: false })
    const inquiry = jest.spyOn(expressApi, 'inquiry').mockRejectedValue(notConfigured('kuaidi100'))
    const clip = jest.spyOn(Taro, 'setClipboardData').mockImplementation(ok)
    const { container } = render(<TrackingTimeline com='shunfeng' num='SF1234567890123' phone='8000' />)
    await settle()
    expect(inquiry).not.toHaveBeenCalled()
    expect(text(container)).toContain('SF Express')
    expect(text(container)).toContain('SF1234567890123')
    expect(text(container)).toContain("Copy the number to follow the parcel on the carrier's site or app")
    expect(configWordIn(text(container))).toBeNull()
    expect(container.querySelector('.tracking__retry')).toBeNull()
    await act(async () => { fireEvent.click(container.querySelector('.tracking__copy')!) })
    expect(clip).toHaveBeenCalledWith({ data: 'SF1234567890123' })
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Tracking number copied' }))
  })

  test('a refusal or outage: the reason, a retry, and the number to copy', async () => {
    const inquiry = jest.spyOn(expressApi, 'inquiry')
      .mockRejectedValueOnce(new ApiError(422, '查询无结果，请隔段时间再查', { provider: 'kuaidi100', status: '500' }))
      .mockResolvedValueOnce({ ...TRACK, delivered: false, events: [] })
    const { container } = render(<TrackingTimeline com='yuantong' num='YT0000000000' />)
    await settle()
    expect(text(container)).toContain('Tracking details are unavailable')
    expect(text(container)).toContain('查询无结果，请隔段时间再查')
    await act(async () => { fireEvent.click(container.querySelector('.tracking__retry')!) })
    expect(inquiry).toHaveBeenCalledTimes(2)
    expect(text(container)).toContain('No tracking events yet')
  })
})
