/**
 * The operator's Shipments tab and packing slip, and the PrizeCheck component, rendered with the
 * typed calls spied on: who may see the tab, the client-side checks of carrier and tracking number,
 * the deliver call, one QR image per prize on the slip, and the prize check's two outcomes.
 */
import { render, fireEvent, act, cleanup, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import type { OperatorShipment, PackingSlip, PrizeVerifyResult } from '~types/afterDraw'
import type { UserInfo } from '~types/accounts'
import { localeStore } from '@/stores/locale'
import { sessionStore } from '@/stores/session'
import { afterDrawApi, operatorApi } from '@/services/afterDraw'
import { visionApi } from '@/services/vision'
import { accountApi } from '@/services/account'
import { ApiError } from '@/services/errors'
import { tokenStorage } from '@/services/token'
import EditorPage from '@/pagesA/editor/index'
import PrizeCheck from '@/components/PrizeCheck'
import { commitInput, sha256Hex } from '@/utils/sha256'
import { fairDraw, serverSeedHash } from '~types/fair'
import type { CombineProof } from '~types/shop'
import jsQR from 'jsqr'

const text = (c: HTMLElement) => c.textContent || ''
const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const user = (role: UserInfo['role']): UserInfo => ({ id: 1, userName: role, nickname: role, phone: null, email: null, avatar: null, role })
const design = { id: 3, name: { zh: '星星兔', en: 'Star bunny' }, image: '/x.webp', rarity: 'rare' as const, referenceValueCents: 5900, recycleValueCents: 1200, oddsPpm: 100000 }
const seriesTitle = { zh: '星空系列', en: 'Starry series' }
const shipment = (over: Partial<OperatorShipment> = {}): OperatorShipment => ({
  id: 17, userId: 5, userEmail: null, status: 'requested',
  pickup: null,
  address: { name: '张三', phone: '13800138000', region: '上海市 浦东新区', detail: '世纪大道 100 号' },
  items: [{ prizeId: 101, seriesTitle, design, caseId: 9, slot: 4, combineId: null, handedAt: null }, { prizeId: 102, seriesTitle, design: { ...design, id: 4, name: { zh: '月亮猫', en: 'Moon cat' } }, caseId: 9, slot: 5, combineId: null, handedAt: null }],
  feeCents: 1000, carrier: null, trackingNo: null, createdAt: '2026-11-20T08:00:00.000Z', shippedAt: null, receivedAt: null, autoReceiveAt: null, receivedBy: null,
  ...over
})

beforeEach(() => {
  Current.router = { path: '/pagesA/editor/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  localeStore.setLocale('en')
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); sessionStore.setUser(null); tokenStorage.clear() })

/** Typing into a Taro Input: under Jest it is Stencil's element, whose React wrapper hears `input` with detail.value. */
const type = (el: Element, value: string) => fireEvent(el, new CustomEvent('input', { detail: { value } }))

function loginAs (role: UserInfo['role']) {
  tokenStorage.set('token-of-test')
  sessionStore.setUser(user(role))
  // the editor asks the server for the role when it opens
  jest.spyOn(accountApi, 'userInfo').mockResolvedValue(user(role))
}

describe('editor access', () => {
  it('a shopper sees "no access" and no operator call is made', async () => {
    loginAs('shopper')
    const request = jest.spyOn(Taro, 'request')
    const { container } = render(<EditorPage />)
    await act(async () => { await Promise.resolve() })
    expect(text(container)).toContain('No access: the editor is for the shop\'s operators')
    expect(container.querySelector('.editor-tab-shipments')).toBeNull()
    expect(request).not.toHaveBeenCalled()
  })

  it('nobody logged in is asked to log in', () => {
    localeStore.setLocale('zh')
    const { container } = render(<EditorPage />)
    expect(text(container)).toContain('请用运营账号登录后使用编辑器')
  })
})

describe('shipments tab', () => {
  async function openTab () {
    loginAs('operator')
    const list = jest.spyOn(operatorApi, 'shipments').mockResolvedValue({ list: [shipment(), shipment({ id: 16, status: 'shipping', carrier: 'jtexpress', trackingNo: 'JT0001', shippedAt: '2026-11-19T08:00:00.000Z', autoReceiveAt: '2026-11-29T08:00:00.000Z' })], total: 23 })
    const view = render(<EditorPage />)
    await act(async () => { await Promise.resolve() })
    await act(async () => { fireEvent.click(view.container.querySelector('.editor-tab-shipments')!) })
    await waitFor(() => expect(view.container.querySelector('.shipment-17')).not.toBeNull())
    return { ...view, list }
  }

  it('lists the queue with address, items, fee and paging; filters by status', async () => {
    const { container, list } = await openTab()
    expect(list).toHaveBeenLastCalledWith({ page: 1, size: 10 })
    const card = container.querySelector('.shipment-17')!
    expect(text(card as HTMLElement)).toContain('张三  13800138000')
    expect(text(card as HTMLElement)).toContain('Star bunny')
    expect(text(card as HTMLElement)).toContain('Moon cat')
    expect(text(card as HTMLElement)).toContain('Starry series · Case #9 · box 4')
    expect(text(card as HTMLElement)).toContain('¥10.00')
    expect(text(container.querySelector('.shipment-16') as HTMLElement)).toContain('Shipped: J&T Express JT0001')
    expect(text(container)).toContain('Page 1/3 · 23 shipments')
    await act(async () => { fireEvent.click(container.querySelector('.shipments-next')!) })
    expect(list).toHaveBeenLastCalledWith({ page: 2, size: 10 })
    await act(async () => { fireEvent.click(container.querySelector('.shipments-filter-requested')!) })
    expect(list).toHaveBeenLastCalledWith({ page: 1, size: 10, status: 'requested' })
  })

  it('checks carrier and tracking number on the client before calling deliver', async () => {
    const { container } = await openTab()
    const deliver = jest.spyOn(operatorApi, 'deliver')
    const card = container.querySelector('.shipment-17')!
    await act(async () => { fireEvent.click(card.querySelector('.deliver-submit')!) })
    expect(text(card as HTMLElement)).toContain('Choose a carrier')
    expect(text(card as HTMLElement)).toContain('Enter the tracking number')
    expect(deliver).not.toHaveBeenCalled()
  })

  it('delivers with a common carrier; the card turns shipping', async () => {
    const { container } = await openTab()
    const card = () => container.querySelector('.shipment-17') as HTMLElement
    const deliver = jest.spyOn(operatorApi, 'deliver').mockImplementation(async (b) => shipment({ status: 'shipping', carrier: b.carrier, trackingNo: b.trackingNo, shippedAt: '2026-11-21T08:00:00.000Z' }))
    await act(async () => { fireEvent.click(card().querySelector('.deliver-carrier-shunfeng')!) })
    const tracking = card().querySelector('.deliver-tracking')!
    await act(async () => { type(tracking, 'ab 12') })
    await act(async () => { fireEvent.click(card().querySelector('.deliver-submit')!) })
    expect(text(card())).toContain('A tracking number is 4-40 letters, digits or -')
    expect(deliver).not.toHaveBeenCalled()
    await act(async () => { type(tracking, ' SF1234567890 ') })
    await act(async () => { fireEvent.click(card().querySelector('.deliver-submit')!) })
    expect(deliver).toHaveBeenCalledWith({ shipmentId: 17, carrier: 'shunfeng', trackingNo: 'SF1234567890' })
    expect(card().className).toContain('shipment--shipping')
    expect(text(card())).toContain('Shipped: SF Express SF1234567890')
  })

  it('another carrier by its Kuaidi100 code, lower-cased; a bad code is refused', async () => {
    const { container } = await openTab()
    const card = () => container.querySelector('.shipment-17') as HTMLElement
    const deliver = jest.spyOn(operatorApi, 'deliver').mockImplementation(async (b) => shipment({ status: 'shipping', carrier: b.carrier, trackingNo: b.trackingNo }))
    await act(async () => { fireEvent.click(card().querySelector('.deliver-carrier-other')!) })
    const code = card().querySelector('.deliver-carrier-code')!
    const tracking = card().querySelector('.deliver-tracking')!
    await act(async () => { type(code, 'De Bang') })
    await act(async () => { type(tracking, 'DB-2026-0001') })
    await act(async () => { fireEvent.click(card().querySelector('.deliver-submit')!) })
    expect(text(card())).toContain('A carrier code is 2-32 lower-case letters or digits')
    expect(deliver).not.toHaveBeenCalled()
    await act(async () => { type(code, ' DebangKuaidi ') })
    await act(async () => { fireEvent.click(card().querySelector('.deliver-submit')!) })
    expect(deliver).toHaveBeenCalledWith({ shipmentId: 17, carrier: 'debangkuaidi', trackingNo: 'DB-2026-0001' })
    expect(text(card())).toContain('Shipped: debangkuaidi DB-2026-0001')
  })

  it('the packing slip shows the address, the number and one QR image per prize that decodes to its link', async () => {
    const { container } = await openTab()
    // 101 was drawn from case 9; 102 was made by combine 7 (no case): the slip prints each one's proof
    const made = shipment()
    const combined = { ...made, items: [made.items[0], { ...made.items[1], caseId: 0, slot: 0, combineId: 7 }] }
    const proof: CombineProof = { serverSeedHash: 'ab'.repeat(32), serverSeed: null, clientSeed: 'lucky-7', nonce: 4, designIds: [3, 4], weights: [1, 1], value: 1, round: 0, word: 0, index: 1 }
    const slip: PackingSlip = {
      shipment: combined,
      codes: [101, 102].map(prizeId => ({
        prizeId,
        verifyUrl: `http://shop.test/pagesA/prize_detail/index?prizeId=${prizeId}&verify=CODE${prizeId}abcdefghijklmn`,
        caseCommit: prizeId === 101 ? 'cd'.repeat(32) : null,
        combineProof: prizeId === 102 ? proof : null
      }))
    }
    jest.spyOn(operatorApi, 'packingSlip').mockResolvedValue(slip)
    await act(async () => { fireEvent.click(container.querySelector('.shipment-17 .shipment-print')!) })
    await waitFor(() => expect(container.querySelector('.packing-slip')).not.toBeNull())
    const el = container.querySelector('.packing-slip') as HTMLElement
    expect(text(el)).toContain('#17')
    expect(text(el)).toContain('上海市 浦东新区 世纪大道 100 号')
    expect(text(el)).toContain('Case #9 · box 4')
    expect(text(el)).toContain(`Case commitment: ${'cd'.repeat(32)}`)
    expect(text(el)).toContain('Combine #7 · nonce 4 · client seed lucky-7')
    expect(text(el)).toContain(`Server seed hash: ${'ab'.repeat(32)}`)
    expect(text(el)).not.toContain('#0')
    // Taro's Image draws its <img> in a later frame (a Stencil component): wait for both
    const qrImages = () => Array.from(el.querySelectorAll('.slip-item__qr img, img.slip-item__qr')) as HTMLImageElement[]
    await waitFor(() => expect(qrImages()).toHaveLength(2), { timeout: 5000 })
    const imgs = qrImages()
    // each image is an SVG of the link: rasterise its path and decode it
    imgs.forEach((img, i) => expect(decodeSvgDataUrl(img.getAttribute('src')!)).toBe(slip.codes[i].verifyUrl))
    await act(async () => { fireEvent.click(container.querySelector('.slip-close')!) })
    expect(container.querySelector('.packing-slip-overlay')).toBeNull()
  })
})

/** Reads the modules back out of the SVG path and decodes them (scale 4 px a module). */
function decodeSvgDataUrl (url: string): string | undefined {
  const svg = decodeURIComponent(url.slice(url.indexOf(',') + 1))
  const size = Number(/viewBox="0 0 (\d+) /.exec(svg)![1])
  const scale = 4
  const side = size * scale
  const data = new Uint8ClampedArray(side * side * 4).fill(255)
  const d = /<path[^>]* d="([^"]*)"/.exec(svg)![1]
  for (const [, x, y, w] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let py = Number(y) * scale; py < (Number(y) + 1) * scale; py++) {
      for (let px = Number(x) * scale; px < (Number(x) + Number(w)) * scale; px++) data.fill(0, (py * side + px) * 4, (py * side + px) * 4 + 3)
    }
  }
  return jsQR(data, side, side)?.data
}

describe('PrizeCheck', () => {
  const arrangement = [5, 3, 3, 4, 3, 6]
  const salt = 'c0ffee'
  const result = (over: Partial<PrizeVerifyResult['proof']> = {}): PrizeVerifyResult => ({
    authentic: true, prizeId: 101, seriesTitle, design, origin: 'case', caseId: 9, slot: 2, combineId: null, combineProof: null,
    proof: { commit: sha256Hex(commitInput(9, arrangement, salt)), revealed: true, arrangement, salt, ...over },
    drawnAt: '2026-11-18T08:00:00.000Z', shippedAt: '2026-11-21T08:00:00.000Z'
  })

  it('authentic, with the case proof recomputed on the device', async () => {
    const verify = jest.spyOn(afterDrawApi, 'prizeVerify').mockResolvedValue(result())
    const { container } = render(<PrizeCheck prizeId={101} code='ABCDEFGHIJKLMNOP' />)
    await waitFor(() => expect(container.querySelector('.prize-check--ok')).not.toBeNull())
    expect(verify).toHaveBeenCalledWith({ prizeId: 101, code: 'ABCDEFGHIJKLMNOP' })
    const shown = text(container)
    expect(shown).toContain('Authentic')
    expect(shown).toContain('Star bunny')
    expect(shown).toContain('Starry series')
    expect(shown).toContain('Case #9 · box 2')
    expect(shown).toContain('The hash computed on this device matches')
    expect(shown).toContain('Your box held exactly this design')
    expect(container.querySelector('.prize-check__proof--ok')).not.toBeNull()
  })

  it('a tampered proof is shown as such; an unrevealed case says so', async () => {
    jest.spyOn(afterDrawApi, 'prizeVerify').mockResolvedValueOnce(result({ salt: 'bad' }))
    const a = render(<PrizeCheck prizeId={101} code='ABCDEFGHIJKLMNOP' />)
    await waitFor(() => expect(a.container.querySelector('.prize-check__proof--bad')).not.toBeNull())
    expect(text(a.container)).toContain('The hash does not match the commitment')
    a.unmount()
    jest.spyOn(afterDrawApi, 'prizeVerify').mockResolvedValueOnce(result({ revealed: false, arrangement: undefined, salt: undefined }))
    const b = render(<PrizeCheck prizeId={101} code='ABCDEFGHIJKLMNOP' />)
    await waitFor(() => expect(b.container.querySelector('.prize-check--ok')).not.toBeNull())
    expect(text(b.container)).toContain('This case is still on sale')
  })

  it('a prize made by combining has no case: its combine\'s draw is shown and, once revealed, recomputed on the device', async () => {
    const serverSeed = '5eed'.repeat(16)
    const weights = [5, 3, 2]
    const d = fairDraw(serverSeed, 'lucky-7', 4, weights)
    const designIds = [11, 12, 13]
    designIds[d.index] = design.id
    const combineProof: CombineProof = { serverSeedHash: serverSeedHash(serverSeed), serverSeed: null, clientSeed: 'lucky-7', nonce: 4, designIds, weights, value: d.value, round: d.round, word: d.word, index: d.index }
    const combined = (p: CombineProof): PrizeVerifyResult => ({
      ...result(), origin: 'combine', caseId: 0, slot: 0, combineId: 7, proof: null, combineProof: p
    })
    jest.spyOn(afterDrawApi, 'prizeVerify').mockResolvedValueOnce(combined(combineProof))
    const a = render(<PrizeCheck prizeId={101} code='ABCDEFGHIJKLMNOP' />)
    await waitFor(() => expect(a.container.querySelector('.prize-check--ok')).not.toBeNull())
    let shown = text(a.container)
    expect(shown).toContain('Made by combine #7')
    expect(shown).toContain('Fairness proof of its combine')
    expect(shown).toContain(combineProof.serverSeedHash)
    expect(shown).toContain('Nonce of this draw: 4')
    expect(shown).toContain('lucky-7:4')
    expect(shown).toContain('The server seed is not revealed yet')
    expect(shown).not.toContain('#0')
    expect(a.container.querySelector('.combine-proof-check')).toBeNull()
    a.unmount()
    // revealed: the device recomputes the HMAC draw and finds this very design; a wrong design is caught
    const cases: Array<[CombineProof, boolean]> = [[{ ...combineProof, serverSeed }, true], [{ ...combineProof, serverSeed, designIds: [design.id + 1, design.id + 1, design.id + 1] }, false]]
    for (const [p, ok] of cases) {
      jest.spyOn(afterDrawApi, 'prizeVerify').mockResolvedValueOnce(combined(p))
      const b = render(<PrizeCheck prizeId={101} code='ABCDEFGHIJKLMNOP' />)
      await waitFor(() => expect(b.container.querySelector('.combine-proof-check')).not.toBeNull())
      await act(async () => { fireEvent.click(b.container.querySelector('.combine-proof-check')!) })
      shown = text(b.container)
      expect(shown).toContain('The server seed hashes to the value published before the combine')
      expect(b.container.querySelector(ok ? '.combine-proof-view__result--ok' : '.combine-proof-view__result--bad')).not.toBeNull()
      expect(shown).toMatch(/HMAC = [0-9a-f]{64}/)
      b.unmount()
    }
  })

  it('the server\'s failure message', async () => {
    localeStore.setLocale('zh')
    jest.spyOn(afterDrawApi, 'prizeVerify').mockRejectedValue(new ApiError(404, '验真码无效', null))
    const { container } = render(<PrizeCheck prizeId={101} code='ABCDEFGHIJKLMNOP' />)
    await waitFor(() => expect(container.querySelector('.prize-check--failed')).not.toBeNull())
    expect(text(container)).toContain('验证失败')
    expect(text(container)).toContain('验真码无效')
  })
})

describe('shipments tab: the tracking number read from a label photo', () => {
  const NONE = { ai: false, tts: false, ocr: false, word2pic: false, pdf: false, video: false, music: false, priceCompare: false, tickets: false, flights: false }
  async function openWith (helpers: typeof NONE) {
    loginAs('operator')
    jest.spyOn(visionApi, 'helpers').mockResolvedValue(helpers)
    jest.spyOn(operatorApi, 'shipments').mockResolvedValue({ list: [shipment()], total: 1 })
    const view = render(<EditorPage />)
    await act(async () => { await Promise.resolve() })
    await act(async () => { fireEvent.click(view.container.querySelector('.editor-tab-shipments')!) })
    await waitFor(() => expect(view.container.querySelector('.shipment-17')).not.toBeNull())
    await act(async () => { await Promise.resolve() })
    return view
  }

  it('no button when the server has no OCR engine', async () => {
    const { container } = await openWith(NONE)
    expect(container.querySelector('.deliver-ocr')).toBeNull()
  })

  it('a photo read by OCR fills the number and the carrier to check, other numbers offered; "not configured" hides the button', async () => {
    const { container } = await openWith({ ...NONE, ocr: true })
    const card = () => container.querySelector('.shipment-17') as HTMLElement
    expect(text(card().querySelector('.deliver-ocr') as HTMLElement)).toBe('📷 Read from a photo of the label')
    const read = jest.spyOn(visionApi, 'ocrFile').mockResolvedValue({ text: '圆通速递\n收件人 13912345678\n运单号 YT7512345678901\n订单 4300123456789', lines: [], width: 1, height: 1, engine: 'tesseract', languages: ['zh', 'en'] })
    const photo = new File([new Uint8Array([255, 216, 255])], 'label.jpg', { type: 'image/jpeg' })
    await act(async () => { fireEvent.change(card().querySelector('.deliver-ocr input[type=file]')!, { target: { files: [photo] } }) })
    expect(read).toHaveBeenCalledWith(photo)
    await waitFor(() => expect(card().querySelector('.deliver-ocr-check')).not.toBeNull())
    expect((card().querySelector('.deliver-tracking') as HTMLInputElement).value).toBe('YT7512345678901')
    expect(card().querySelector('.deliver-carrier-yuantong.chip--on')).not.toBeNull()
    const offered = Array.from(card().querySelectorAll('.deliver-ocr-pick')).map(e => e.textContent)
    expect(offered).toEqual(['YT7512345678901', '4300123456789'])
    // the operator picks the other one
    await act(async () => { fireEvent.click(card().querySelectorAll('.deliver-ocr-pick')[1]) })
    expect((card().querySelector('.deliver-tracking') as HTMLInputElement).value).toBe('4300123456789')

    read.mockRejectedValueOnce(new ApiError(422, 'Text recognition is not configured', { provider: 'ocr' }))
    await act(async () => { fireEvent.change(card().querySelector('.deliver-ocr input[type=file]')!, { target: { files: [photo] } }) })
    await waitFor(() => expect(card().querySelector('.deliver-ocr')).toBeNull())
  })
})
