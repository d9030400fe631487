/**
 * "Scan to check": the link of a packing slip's QR parsed into {prizeId, code}, every other text
 * refused with a message that says why (zh and en), the spec's "QR parse failed: <reason>", and the
 * scanner on each platform (the mini-program's scanCode, H5's photo input).
 */
import Taro from '@tarojs/taro'
import jsQR from 'jsqr'
import { localeStore } from '@/stores/locale'
import {
  SCANNER_FPS, SCANNER_SCAN_TYPES, ScanError, checkPhotoSize, decodeImageFile, decodePixels, parsePrizeCode, scanPrizeCode, type QrDecoder
} from '@/utils/scan'
import { gifWithFrame, jpegClaiming, pngClaiming, webpClaiming } from '../support/hugeImages'
import { makePng } from '../support/png'
import { qrMatrix } from '@/utils/qr'

const CODE = 'Ab3_x-9QrT5uVw8yZ0kLm2'
const catchError = (fn: () => unknown): ScanError => {
  try { fn() } catch (e) { return e as ScanError }
  throw new Error('no error thrown')
}

beforeEach(() => localeStore.setLocale('en'))
afterEach(() => { jest.restoreAllMocks(); process.env.TARO_ENV = 'h5' })

describe('parsePrizeCode', () => {
  it.each([
    [`http://127.0.0.1:3000/pagesA/prize_detail/index?prizeId=12&verify=${CODE}`, 12],
    [`https://shop.example.cn/pagesA/prize_detail/index?verify=${CODE}&prizeId=900719925474099`, 900719925474099],
    [`  https://shop.example.cn/app/pagesA/prize_detail/index?prizeId=3&verify=${CODE}&utm=x#top \n`, 3],
    [`/pagesA/prize_detail/index?prizeId=7&verify=${encodeURIComponent(CODE)}`, 7]
  ])('reads %s', (url, prizeId) => {
    expect(parsePrizeCode(url)).toEqual({ prizeId, code: CODE })
  })

  it.each([
    ['', 'This is not a Pickbox prize check code'],
    ['hello world', 'This is not a Pickbox prize check code'],
    [`https://evil.example/pagesA/prize_detail/index.html?prizeId=1&verify=${CODE}`, 'This is not a Pickbox prize check code'],
    [`ftp://x/pagesA/prize_detail/index?prizeId=1&verify=${CODE}`, 'This is not a Pickbox prize check code'],
    [`https://x.cn/pagesA/prize_show/index?prizeId=1&verify=${CODE}`, 'This is not a Pickbox prize check code'],
    [`https://x.cn/pagesA/prize_detail/index?verify=${CODE}`, 'The code has no valid prize number'],
    [`https://x.cn/pagesA/prize_detail/index?prizeId=0&verify=${CODE}`, 'The code has no valid prize number'],
    [`https://x.cn/pagesA/prize_detail/index?prizeId=1e3&verify=${CODE}`, 'The code has no valid prize number'],
    [`https://x.cn/pagesA/prize_detail/index?prizeId=99999999999999999&verify=${CODE}`, 'The code has no valid prize number'],
    ['https://x.cn/pagesA/prize_detail/index?prizeId=5', 'The code has no valid check code'],
    ['https://x.cn/pagesA/prize_detail/index?prizeId=5&verify=short', 'The code has no valid check code'],
    [`https://x.cn/pagesA/prize_detail/index?prizeId=5&verify=${CODE}!`, 'The code has no valid check code'],
    ['https://x.cn/pagesA/prize_detail/index?prizeId=5&verify=%E0%A4%A', 'The code has no valid check code']
  ])('refuses %j: %s', (text, message) => {
    const e = catchError(() => parsePrizeCode(text))
    expect(e).toBeInstanceOf(ScanError)
    expect(e.kind).toBe('notPrizeCode')
    expect(e.message).toBe(message)
  })

  it('speaks Chinese too', () => {
    localeStore.setLocale('zh')
    expect(catchError(() => parsePrizeCode('hello')).message).toBe('这不是拾盒奖品的验真二维码')
  })
})

describe('decoding', () => {
  const decoder: QrDecoder = (d, w, h) => jsQR(d, w, h, { inversionAttempts: 'attemptBoth' })

  it('the spec defaults are named constants', () => {
    expect(SCANNER_FPS).toBe(2)
    expect(SCANNER_SCAN_TYPES).toEqual(['camera', 'file'])
  })

  it('decodes pixels, also a light-on-dark code; an empty picture is "QR parse failed: <reason>"', () => {
    const url = `http://127.0.0.1/pagesA/prize_detail/index?prizeId=42&verify=${CODE}`
    const m = qrMatrix(url)
    const scale = 3
    const side = (m.length + 8) * scale
    const px = (invert: boolean) => {
      const data = new Uint8ClampedArray(side * side * 4)
      for (let y = 0; y < side; y++) {
        for (let x = 0; x < side; x++) {
          const r = Math.floor(y / scale) - 4
          const c = Math.floor(x / scale) - 4
          const dark = r >= 0 && c >= 0 && r < m.length && c < m.length && m[r][c]
          const v = (dark !== invert) ? 20 : 235
          data.set([v, v, v, 255], (y * side + x) * 4)
        }
      }
      return data
    }
    expect(parsePrizeCode(decodePixels(decoder, px(false), side, side))).toEqual({ prizeId: 42, code: CODE })
    expect(decodePixels(decoder, px(true), side, side)).toBe(url)
    const blank = new Uint8ClampedArray(side * side * 4).fill(255)
    expect(catchError(() => decodePixels(decoder, blank, side, side)).message).toBe('QR parse failed: no QR code found in the image')
    localeStore.setLocale('zh')
    expect(catchError(() => decodePixels(decoder, blank, side, side)).message).toBe('二维码解析失败：图片中没有找到二维码')
  })
})

describe('scanPrizeCode', () => {
  it('mini-program: the platform scanner, QR only, camera and album', async () => {
    process.env.TARO_ENV = 'weapp'
    const scan = jest.spyOn(Taro, 'scanCode').mockResolvedValue({ result: `https://x.cn/pagesA/prize_detail/index?prizeId=8&verify=${CODE}`, errMsg: 'scanCode:ok' } as never)
    await expect(scanPrizeCode()).resolves.toEqual({ prizeId: 8, code: CODE })
    expect(scan).toHaveBeenCalledWith({ scanType: ['qrCode'], onlyFromCamera: false })
  })

  it('mini-program: cancel, a platform failure and a foreign code', async () => {
    process.env.TARO_ENV = 'weapp'
    const scan = jest.spyOn(Taro, 'scanCode')
    scan.mockRejectedValueOnce({ errMsg: 'scanCode:fail cancel' })
    await expect(scanPrizeCode()).rejects.toMatchObject({ kind: 'canceled', message: 'Scan canceled' })
    scan.mockRejectedValueOnce({ errMsg: 'scanCode:fail system error' })
    await expect(scanPrizeCode()).rejects.toMatchObject({ kind: 'parse', message: 'QR parse failed: scanCode:fail system error' })
    scan.mockResolvedValueOnce({ result: 'WIFI:S:home;T:WPA;P:secret;;', errMsg: 'scanCode:ok' } as never)
    await expect(scanPrizeCode()).rejects.toMatchObject({ kind: 'notPrizeCode' })
  })

  it('H5: a photo input offering camera and album; no file is the spec\'s "no file selected"', async () => {
    const pending = scanPrizeCode()
    const input = document.querySelector('input.scan-file-input') as HTMLInputElement
    expect(input).not.toBeNull()
    expect(input.type).toBe('file')
    expect(input.accept).toBe('image/*')
    expect(input.hasAttribute('capture')).toBe(false)
    input.dispatchEvent(new Event('change'))
    await expect(pending).rejects.toMatchObject({ kind: 'noFile', message: 'No file selected' })
    expect(document.querySelector('input.scan-file-input')).toBeNull()
  })
})

describe('a photo enormous once decoded is refused by its header, before the browser decodes it', () => {
  it.each([
    ['a PNG of 30000 x 30000', pngClaiming(30000, 30000), '30000 × 30000'],
    ['a JPEG after 64 KB of EXIF', jpegClaiming(20000, 15000, 65000), '20000 × 15000'],
    ['a GIF with a frame beyond its screen', gifWithFrame(16, 16, 0, 0, 5000, 5000), '5000 × 5000'],
    ['a WebP canvas', webpClaiming(16384, 16384), '16384 × 16384']
  ])('%s', async (_, bytes, size) => {
    const error = await checkPhotoSize(new Blob([new Uint8Array(bytes)])).catch((e: unknown) => e as ScanError)
    expect(error).toBeInstanceOf(ScanError)
    expect(error).toMatchObject({ kind: 'parse', message: `QR parse failed: the image is too large: at most 16,777,216 pixels (width × height), this one is ${size}` })
  })

  it('in Chinese too; the decoder never sees it; a photo within the limit passes', async () => {
    localeStore.setLocale('zh')
    const createUrl = jest.fn(() => 'blob:x')
    const saved = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL }
    Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: jest.fn() })
    const decoder = jest.fn()
    try {
      await expect(decodeImageFile(new Blob([new Uint8Array(pngClaiming(30000, 30000))]), Promise.resolve(decoder))).rejects.toMatchObject({
        kind: 'parse', message: '二维码解析失败：图片尺寸太大：最多 16,777,216 像素（宽 × 高），这张是 30000 × 30000'
      })
    } finally { Object.assign(URL, saved) }
    expect(createUrl).not.toHaveBeenCalled()
    expect(decoder).not.toHaveBeenCalled()
    await expect(checkPhotoSize(new Blob([new Uint8Array(pngClaiming(4096, 4096))]))).resolves.toBeUndefined()
    await expect(checkPhotoSize(new Blob([new Uint8Array(makePng(64, 64, [0, 0, 0]))]))).resolves.toBeUndefined()
  })
})
