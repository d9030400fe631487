/**
 * The pickup picker's following of the phone (spec 9: location refresh every 30000 ms while a map is
 * open): the position is asked again every 30 s, the list is asked again only after a move of more
 * than 100 m, a searched place stops the following, and nothing is asked after the picker closes.
 * Its calls are spied on; the maps and routes are the Chromium and simulator suites' part.
 */
import { render, act, cleanup, fireEvent, waitFor } from '@testing-library/react'
import type { PickupDirectory, PickupNearbyResult } from '~types/afterDraw'
import { filterDirectory } from '@/components/PickupPicker/directory'
import * as location from '@/utils/location'
import { afterDrawApi } from '@/services/afterDraw'
import { geoApi } from '@/services/geo'
import { accountApi } from '@/services/account'
import { localeStore } from '@/stores/locale'
import PickupPicker from '@/components/PickupPicker'
import { LOCATION_REFRESH_MS } from '@/constants'

const HERE = { latitude: 39.98413, longitude: 116.30746 }
const north = (m: number) => ({ ...HERE, latitude: HERE.latitude + m / 111320 })
const at = (p: { latitude: number; longitude: number }) => ({ ...p, speed: 0, altitude: 0, horizontalAccuracy: 30, source: 'device' as const })
const result: PickupNearbyResult = {
  list: [{ id: 7, name: '拾盒 中关村店', address: '中关村大街15号', hours: '每天 10:00-22:00', latitude: 39.98263, longitude: 116.31161, active: true, distance: 380 }],
  total: 1, radius: 5000, routeProvider: null, webMap: null
}

beforeEach(() => {
  jest.useFakeTimers()
  localeStore.setLocale('zh')
  jest.spyOn(accountApi, 'loginSettings').mockResolvedValue({ password: true, sms: false, email: false, wechat: false, weapp: false, register: true, capabilities: { maps: false, tracking: false, priceCompare: false, speech: false, ai: false } })
})
afterEach(() => { cleanup(); jest.useRealTimers(); jest.restoreAllMocks() })
const consoleError = console.error.bind(console)
beforeEach(() => {
  // jsdom never renders Taro's <input> inside taro-input-core, whose value watcher then reads
  // `undefined.value` when React sets a new value: that one complaint is jsdom's, not the component's
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes("reading 'value'") && String((args[0] as Error)?.stack).includes('taro-input-core')) return
    consoleError(...args)
  })
})

test('asks again every 30 s; the list follows a move of more than 100 m only; nothing after closing', async () => {
  const positions = [HERE, north(40), north(400)]
  const locate = jest.spyOn(location, 'locate').mockImplementation(async () => at(positions.shift() ?? north(400)))
  const nearby = jest.spyOn(afterDrawApi, 'pickupNearby').mockResolvedValue(result)
  const chosen: number[] = []
  const view = render(<PickupPicker selectedId={null} onSelect={p => chosen.push(p.id)} />)
  await waitFor(() => expect(nearby).toHaveBeenCalledTimes(1))
  expect(nearby.mock.calls[0][0]).toEqual({ latitude: HERE.latitude, longitude: HERE.longitude })
  await waitFor(() => expect(chosen).toEqual([7]))
  expect(view.container.textContent).toContain('从你当前的位置出发')
  expect(view.container.textContent).toContain('直线 380 米')

  // 30 s: 40 m further, the list stays
  await act(async () => { jest.advanceTimersByTime(LOCATION_REFRESH_MS) })
  await waitFor(() => expect(locate).toHaveBeenCalledTimes(2))
  await act(async () => { await Promise.resolve() })
  expect(nearby).toHaveBeenCalledTimes(1)
  // 30 s more: 400 m away, asked again from there
  await act(async () => { jest.advanceTimersByTime(LOCATION_REFRESH_MS) })
  await waitFor(() => expect(nearby).toHaveBeenCalledTimes(2))
  expect(nearby.mock.calls[1][0].latitude).toBeCloseTo(north(400).latitude, 6)
  // not every 29 s
  await act(async () => { jest.advanceTimersByTime(LOCATION_REFRESH_MS - 1000) })
  expect(locate).toHaveBeenCalledTimes(3)

  view.unmount()
  await act(async () => { jest.advanceTimersByTime(LOCATION_REFRESH_MS * 3) })
  expect(locate).toHaveBeenCalledTimes(3)
})

const directory: PickupDirectory = {
  cities: [
    { city: '北京市', list: [{ ...result.list[0], address: '北京市海淀区中关村大街15号' }, { id: 9, name: '拾盒 国贸店', address: '北京市朝阳区建国门外大街1号', hours: '每天 10:00-22:00', latitude: 39.9088, longitude: 116.459, active: true }] },
    { city: '深圳市', list: [{ id: 11, name: '拾盒 海岸城店', address: '广东省深圳市南山区文心五路33号', hours: '每天 10:00-22:00', latitude: 22.517, longitude: 113.936, active: true }] }
  ],
  total: 3
}

test('the position cannot be had (and the shop has no maps, so no place search): every counter by city, searchable, and one can be chosen (issue 48)', async () => {
  jest.spyOn(location, 'locate').mockRejectedValue(new location.LocationError('no position'))
  const nearby = jest.spyOn(afterDrawApi, 'pickupNearby').mockResolvedValue(result)
  jest.spyOn(afterDrawApi, 'pickupDirectory').mockResolvedValue(directory)
  const chosen: number[] = []
  const view = render(<PickupPicker selectedId={null} onSelect={p => chosen.push(p.id)} />)
  await waitFor(() => expect(view.container.textContent).toContain('无法获取当前位置：下面列出全部自提点，可按名称、地址或城市搜索'))
  await waitFor(() => expect(view.container.querySelectorAll('.pickup-point')).toHaveLength(3))
  expect([...view.container.querySelectorAll('.pickup-dir__city-name')].map(e => e.textContent)).toEqual(['北京市 · 2 个自提点', '深圳市 · 1 个自提点'])
  expect(nearby).not.toHaveBeenCalled()
  // the search: by city, by address, by name; nothing found says so
  // a Taro Input on H5: a custom element that emits input events with detail.value
  const search = view.container.querySelector('.pickup-dir__search')!
  const type = async (value: string) => { await act(async () => { fireEvent(search, new CustomEvent('input', { detail: { value }, bubbles: true })) }) }
  await type('深圳')
  expect([...view.container.querySelectorAll('.pickup-point__name')].map(e => e.textContent)).toEqual(['拾盒 海岸城店'])
  await type('建国门')
  expect([...view.container.querySelectorAll('.pickup-point__name')].map(e => e.textContent)).toEqual(['拾盒 国贸店'])
  await type('上海')
  expect(view.container.textContent).toContain('没有名称、地址或城市含「上海」的自提点')
  await type('')
  fireEvent.click(view.container.querySelector('.pickup-point-11')!)
  expect(chosen).toEqual([11])
})

test('the directory\'s search folds case, width and spaces, and needs every word', () => {
  expect(filterDirectory(directory, ' 北京  国贸 ').flatMap(c => c.list.map(p => p.id))).toEqual([9])
  expect(filterDirectory(directory, 'ＡＢＣ')).toEqual([])
  expect(filterDirectory(directory, '')).toBe(directory.cities)
})

test('each point\'s driving route from the provider the shop chose: AMap\'s call with AMap, Tencent\'s with Tencent', async () => {
  const route = { distance: 1200, duration: 300, polyline: [{ latitude: 39.984, longitude: 116.307 }, { latitude: 39.9826, longitude: 116.3116 }], steps: [{ instruction: '向东行驶 1200 米到达终点', road: '', distance: 1200, polylineIdx: [0, 1] as [number, number] }] }
  for (const provider of ['amap', 'tencentMap'] as const) {
    jest.spyOn(location, 'locate').mockResolvedValue(at(HERE))
    jest.spyOn(afterDrawApi, 'pickupNearby').mockResolvedValue({ ...result, routeProvider: provider })
    const amap = jest.spyOn(geoApi, 'amapDirectionDriving').mockResolvedValue(route)
    const tencent = jest.spyOn(geoApi, 'driving').mockResolvedValue(route)
    const view = render(<PickupPicker selectedId={7} onSelect={() => undefined} />)
    await waitFor(() => expect(view.container.textContent).toContain('驾车 1.2 公里 · 约 5 分钟'))
    expect(view.container.textContent).toContain('1. 向东行驶 1200 米到达终点')
    const [used, unused] = provider === 'amap' ? [amap, tencent] : [tencent, amap]
    expect(used).toHaveBeenCalledTimes(1)
    expect(unused).not.toHaveBeenCalled()
    const p = result.list[0]
    expect(used.mock.calls[0][0]).toEqual(provider === 'amap'
      ? { origin: { latitude: HERE.latitude, longitude: HERE.longitude }, destination: { latitude: p.latitude, longitude: p.longitude } }
      : { from: { latitude: HERE.latitude, longitude: HERE.longitude }, to: { latitude: p.latitude, longitude: p.longitude } })
    view.unmount()
    jest.restoreAllMocks()
    jest.spyOn(accountApi, 'loginSettings').mockResolvedValue({ password: true, sms: false, email: false, wechat: false, weapp: false, register: true, capabilities: { maps: false, tracking: false, priceCompare: false, speech: false, ai: false } })
  }
})
