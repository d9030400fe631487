/**
 * The picture calls' client side: the payload rules of word2pic (trimmed, never empty, cut to the
 * limit by characters) and pic2word (an absolute URL), the upload routes OCR and screenshots go to
 * (uploadFile in the mini-program, a multipart fetch in a browser), and the tracking numbers picked out
 * of the text a label's photo gave.
 */
import Taro from '@tarojs/taro'
import * as request from '@/services/request'
import { localeStore } from '@/stores/locale'
import { OCR_URL, pic2wordBody, PromptError, SCREENSHOT_URL, visionApi, word2picBody } from '@/services/vision'
import { trackingCandidates } from '@/pagesA/editor/trackingNumber'
import { VISION_LIMITS } from '~types/limits'

beforeEach(() => localeStore.setLocale('en'))
afterEach(() => jest.restoreAllMocks())

test('word2pic: the text is trimmed and cut to the limit by characters; an empty one never leaves', async () => {
  expect(word2picBody('  星空封面 \n')).toEqual({ text: '星空封面' })
  expect(word2picBody('cover', '512x512')).toEqual({ text: 'cover', size: '512x512' })
  const long = '🌟'.repeat(VISION_LIMITS.promptMax + 5)
  expect(Array.from(word2picBody(long).text)).toHaveLength(VISION_LIMITS.promptMax)
  expect(() => word2picBody('  \n ')).toThrow(PromptError)
  expect(() => word2picBody('')).toThrow('Describe the picture first')
  localeStore.setLocale('zh')
  expect(() => word2picBody('')).toThrow('请先写下画面的描述')
  const sent: unknown[] = []
  jest.spyOn(request, 'postRoute').mockImplementation(((url: string, body: unknown) => { sent.push([url, body]); return Promise.resolve({}) }) as never)
  await visionApi.word2pic(' 蓝色星空 ')
  await expect(visionApi.word2pic(' ')).rejects.toBeInstanceOf(PromptError)
  expect(sent).toEqual([['/api/pic/word2pic', { text: '蓝色星空' }]])
})

test('pic2word: the picture goes as an absolute URL the AI can fetch', async () => {
  expect(pic2wordBody('/media/u/ab.png', 'zh', 'https://shop.example')).toEqual({ file: 'https://shop.example/media/u/ab.png', lang: 'zh' })
  expect(pic2wordBody('https://cdn.example/x.png', undefined, 'https://shop.example')).toEqual({ file: 'https://cdn.example/x.png' })
  const sent: unknown[] = []
  jest.spyOn(request, 'postRoute').mockImplementation(((url: string, body: unknown) => { sent.push([url, body]); return Promise.resolve({ text: 'a cat' }) }) as never)
  expect(await visionApi.pic2word('/media/u/cd.png')).toEqual({ text: 'a cat' })
  expect(sent).toEqual([['/api/pic/pic2word', { file: `${location.origin}/media/u/cd.png` }]])
})

test('OCR and screenshots go to their own routes: uploadFile in the mini-program, a multipart fetch in a browser', async () => {
  jest.spyOn(Taro, 'chooseImage').mockResolvedValue({ tempFilePaths: ['wxfile://label.jpg'], tempFiles: [{ path: 'wxfile://label.jpg', size: 1000 }], errMsg: 'ok' } as never)
  const up = jest.spyOn(Taro, 'uploadFile').mockResolvedValue({ statusCode: 200, data: JSON.stringify({ code: 200, message: 'ok', data: { text: 'SF1402339827156', lines: [] } }), errMsg: 'ok' } as never)
  expect((await visionApi.ocrPick()).text).toBe('SF1402339827156')
  expect(up.mock.calls[0][0]).toMatchObject({ url: expect.stringMatching(/\/api\/ocr$/), name: 'file', filePath: 'wxfile://label.jpg' })
  up.mockResolvedValueOnce({ statusCode: 200, data: JSON.stringify({ code: 422, message: 'Text recognition is not configured', data: { provider: 'ocr' } }), errMsg: 'ok' } as never)
  await expect(visionApi.ocrPick()).rejects.toMatchObject({ code: 422, data: { provider: 'ocr' } })
  await visionApi.screenshotPick()
  expect(up.mock.calls[2][0].url).toMatch(/\/api\/upload\/image$/)

  const fetched: Array<[string, RequestInit]> = []
  const realFetch = global.fetch
  global.fetch = jest.fn((url: string, init: RequestInit) => { fetched.push([url, init]); return Promise.resolve(new Response(JSON.stringify({ code: 200, message: 'ok', data: { url: '/media/u/x.png' } }))) }) as never
  try {
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type: 'image/png' })
    await visionApi.screenshotFile(file)
    await visionApi.ocrFile(file)
    expect(fetched.map(([u]) => u.replace(/^.*(\/api\/)/, '$1'))).toEqual([SCREENSHOT_URL, OCR_URL])
    expect((fetched[0][1].body as FormData).get('file')).toBeInstanceOf(File)
    // a file of another kind never leaves
    await expect(visionApi.ocrFile(new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }))).rejects.toMatchObject({ reason: 'type' })
    await expect(visionApi.ocrFile(null)).rejects.toMatchObject({ reason: 'none' })
    expect(fetched).toHaveLength(2)
  } finally { global.fetch = realFetch }
})

test('tracking numbers: the waybill number first, phones, dates and postcodes left out, groups joined', () => {
  const label = [
    '顺丰速运 SF EXPRESS',
    '寄件人：星际小店 13800138000',
    '收件人：张三 139 1234 5678',
    '上海市浦东新区世纪大道100号 200120',
    '运单号：SF 1402 3398 2715 6',
    '订单 2026112212345678 打印时间 2026-11-22'
  ].join('\n')
  const found = trackingCandidates(label)
  expect(found[0]).toEqual({ no: 'SF1402339827156', score: 7, carrier: 'shunfeng' })
  expect(found.map(c => c.no)).not.toContain('13800138000')
  expect(found.map(c => c.no)).not.toContain('13912345678')
  expect(found.map(c => c.no)).not.toContain('200120')
  // full-width characters from the engine, a number on the line after its label, a carrier named in words
  expect(trackingCandidates('圆通速递\n运单号\n７５１２３４５６７８９０１')[0]).toEqual({ no: '7512345678901', score: 5, carrier: 'yuantong' })
  expect(trackingCandidates('Tracking No. JT0012345678901')[0]).toMatchObject({ no: 'JT0012345678901', carrier: 'jtexpress' })
  expect(trackingCandidates('EMS  EA123456789CN')[0]).toMatchObject({ no: 'EA123456789CN', carrier: 'ems' })
  expect(trackingCandidates('Blind Box Shop\nThank you!')).toEqual([])
  expect(trackingCandidates('1\n2\n3\n4\n5\n6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4', 2).length).toBeLessThanOrEqual(2)
})
