/**
 * The parcel's map (issue 24 item 2): the route's cities in order with the expected arrival and a map
 * of them, Kuaidi100's message ("接口请求失败") in its place when the track cannot be had, nothing when
 * the shop has no tracking. The map call is spied on (the Chromium suite runs it against the fake).
 */
import { render, cleanup, waitFor } from '@testing-library/react'
import type { LoginSettings } from '~types/accounts'
import { accountApi } from '@/services/account'
import { expressApi } from '@/services/express'
import { capabilitiesStore } from '@/stores/capabilities'
import { localeStore } from '@/stores/locale'
import ParcelRoute from '@/components/ParcelRoute'

const settings = (tracking: boolean): LoginSettings => ({ password: true, sms: false, email: false, wechat: false, weapp: false, register: true, capabilities: { maps: false, tracking, priceCompare: false, speech: false, ai: false } })
const track = { com: 'shunfeng', num: 'SF1234567890123', state: '5', delivered: false, events: [] }
const point = (name: string, latitude: number, longitude: number) => ({ name, adcode: '', position: { latitude, longitude } })

beforeEach(() => { localeStore.setLocale('zh') })
afterEach(() => { cleanup(); jest.restoreAllMocks() })

test('the route: from, now, to, the arrival, and the map call with the parcel\'s destination', async () => {
  jest.spyOn(accountApi, 'loginSettings').mockResolvedValue(settings(true))
  await capabilitiesStore.refresh()
  const map = jest.spyOn(expressApi, 'map').mockResolvedValue({
    success: true, message: 'ok', track, trailUrl: '', arrivalTime: '2026-03-01 18', totalTime: '', remainTime: '',
    route: { from: point('广东省深圳市', 22.543, 114.058), current: point('上海,上海市', 31.23, 121.474), to: { name: '某地', adcode: '', position: null } }
  })
  const view = render(<ParcelRoute com='shunfeng' num='SF1234567890123' to='上海市 徐汇区 漕溪北路 1 号' phone='13800138000' />)
  await waitFor(() => expect(view.container.textContent).toContain('发出 广东省深圳市 → 当前 上海 上海市 → 送往 某地'))
  expect(view.container.textContent).toContain('预计 2026-03-01 18 时送达')
  expect(map).toHaveBeenCalledWith({ com: 'shunfeng', num: 'SF1234567890123', to: '上海市 徐汇区 漕溪北路 1 号', phone: '13800138000' })
})

test('Kuaidi100 cannot answer: its message in the map\'s place', async () => {
  jest.spyOn(accountApi, 'loginSettings').mockResolvedValue(settings(true))
  await capabilitiesStore.refresh()
  jest.spyOn(expressApi, 'map').mockResolvedValue({ success: false, message: '接口请求失败' })
  const view = render(<ParcelRoute com='zhongtong' num='75312345678901' to='北京市' />)
  await waitFor(() => expect(view.container.querySelector('.parcel-route--failed')?.textContent).toBe('接口请求失败'))
})

test('no tracking in this shop: nothing, and no call', async () => {
  jest.spyOn(accountApi, 'loginSettings').mockResolvedValue(settings(false))
  await capabilitiesStore.refresh()
  const map = jest.spyOn(expressApi, 'map')
  const view = render(<ParcelRoute com='zhongtong' num='75312345678901' to='北京市' />)
  await new Promise(r => setTimeout(r, 20))
  expect(view.container.textContent).toBe('')
  expect(map).not.toHaveBeenCalled()
})
