/**
 * Asking again for what was not there yet: a prize page whose case was still on sale asks for the case's
 * proof (POST /api/caseProof) and, once published, shows the arrangement and salt to check on the
 * device; a pickup card asks for its shipment (POST /api/shipmentDetail) and shows the prizes handed
 * over since. The calls are spied on.
 */
import { render, fireEvent, act, cleanup, waitFor } from '@testing-library/react'
import { useEffect } from 'react'
import Taro from '@tarojs/taro'
import * as TaroModule from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import type { PrizeDetail } from '~types/shop'
import type { Shipment } from '~types/afterDraw'
import { localeStore } from '@/stores/locale'
import { shopApi } from '@/services/shop'
import { afterDrawApi } from '@/services/afterDraw'
import { accountApi } from '@/services/account'
import PrizeDetailPage from '@/pagesA/prize_detail/index'
import ParcelCard from '@/components/ParcelCard'
import { commitInput, sha256Hex } from '@/utils/sha256'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const design = { id: 3, name: { zh: '星星兔', en: 'Star bunny' }, image: '/x.webp', rarity: 'rare' as const, referenceValueCents: 5900, recycleValueCents: 1200, oddsPpm: 100000 }
const arrangement = [4, 3, 4, 4]
const salt = 'ab'.repeat(16)

beforeEach(() => {
  localeStore.setLocale('zh')
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  jest.spyOn(accountApi, 'loginSettings').mockResolvedValue({ password: true, sms: false, email: false, wechat: false, weapp: false, register: true, capabilities: { maps: false, tracking: false, priceCompare: false, speech: false, ai: false } })
})
afterEach(() => { cleanup(); jest.restoreAllMocks() })

test('a case still on sale: "check whether it is published" asks again, and the proof appears to check', async () => {
  // the page loads on show; outside a Taro page that is once, on mount
  jest.spyOn(TaroModule, 'useDidShow').mockImplementation((fn: () => void) => { useEffect(() => { fn() }, []) })
  Current.router = { path: '/pagesA/prize_detail/index', params: { prizeId: '9' }, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
  const commit = sha256Hex(commitInput(21, arrangement, salt))
  const prize: PrizeDetail = {
    prizeId: 9, seriesId: 1, seriesTitle: { zh: '星空系列', en: 'Starry' }, design, caseId: 21, slot: 2, status: 'warehouse', origin: 'case', combineId: null, createdAt: '2026-11-20T08:00:00.000Z',
    proof: { caseId: 21, seriesId: 1, commit, status: 'on_sale', revealed: false }, combineProof: null
  } as unknown as PrizeDetail
  jest.spyOn(shopApi, 'prizeDetail').mockResolvedValue(prize)
  const caseProof = jest.spyOn(shopApi, 'caseProof')
    .mockResolvedValueOnce({ caseId: 21, seriesId: 1, commit, status: 'on_sale', revealed: false })
    .mockResolvedValueOnce({ caseId: 21, seriesId: 1, commit, status: 'sold_out', revealed: true, arrangement, salt })
  const view = render(<PrizeDetailPage />)
  await waitFor(() => expect(view.container.querySelector('.proof-recheck')).toBeTruthy())
  await act(async () => { fireEvent.click(view.container.querySelector('.proof-recheck')!) })
  expect(caseProof).toHaveBeenCalledWith(21)
  expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: '这一箱还在售，公开后再来验算' }))
  expect(view.container.querySelector('.proof-salt')).toBeNull()
  await act(async () => { fireEvent.click(view.container.querySelector('.proof-recheck')!) })
  await waitFor(() => expect(view.container.querySelector('.proof-salt')?.textContent).toBe(salt))
  await act(async () => { fireEvent.click(view.container.querySelector('.proof-verify')!) })
  expect(view.container.querySelector('.proof-result--ok')).toBeTruthy()
})

test('a pickup at the counter: "refresh" shows the prizes handed over since', async () => {
  const item = { prizeId: 101, seriesTitle: { zh: '星空系列', en: 'Starry' }, design, caseId: 9, slot: 4, combineId: null, handedAt: null }
  const pickup = { id: 7, name: '拾盒 中关村店', address: '中关村大街15号', hours: '每天 10:00-22:00', latitude: 39.98, longitude: 116.31, active: true }
  const waiting: Shipment = {
    id: 17, status: 'requested', pickup, address: { name: '王五', phone: '13700137000', region: pickup.name, detail: pickup.address },
    items: [item, { ...item, prizeId: 102 }], feeCents: 0, carrier: null, trackingNo: null, createdAt: '2026-11-20T08:00:00.000Z', shippedAt: null, receivedAt: null, autoReceiveAt: null, receivedBy: null
  }
  const detail = jest.spyOn(afterDrawApi, 'shipmentDetail').mockResolvedValue({ ...waiting, items: [{ ...item, handedAt: '2026-11-21T09:00:00.000Z' }, { ...item, prizeId: 102 }] })
  let shown = waiting
  const view = render(<ParcelCard shipment={shown} onChanged={s => { shown = s; view.rerender(<ParcelCard shipment={shown} onChanged={() => undefined} />) }} />)
  expect(view.container.textContent).toContain('已领取 0/2 件')
  await act(async () => { fireEvent.click(view.container.querySelector('.parcel__refresh')!) })
  expect(detail).toHaveBeenCalledWith(17)
  expect(view.container.textContent).toContain('已领取 1/2 件')
})
