/**
 * Spec 5: storage read, write and remove need variableName ("variableName不能为空"); a download needs a
 * url ("请提供下载地址"). Storage is Taro's real (H5) storage; Taro.downloadFile is watched (what it is
 * asked for, and how its answers and failures are read).
 */
import Taro from '@tarojs/taro'
import { localeStore } from '@/stores/locale'
import { readVariable, removeVariable, writeVariable, StorageError } from '@/utils/storage'
import { download, DownloadError } from '@/services/download'

beforeEach(() => { Taro.clearStorageSync() })
afterEach(() => { jest.restoreAllMocks(); localeStore.setLocale('zh') })

test('storage by name: written, read back (objects too), removed; a missing or blank name refused before anything', () => {
  localeStore.setLocale('zh')
  writeVariable('lastSeries', { id: 7, title: '星际旅人' })
  expect(readVariable('lastSeries')).toEqual({ id: 7, title: '星际旅人' })
  expect(readVariable('neverWritten')).toBeNull()
  removeVariable('lastSeries')
  expect(readVariable('lastSeries')).toBeNull()
  const set = jest.spyOn(Taro, 'setStorageSync')
  for (const bad of ['', '   ', undefined, null, 42]) {
    expect(() => writeVariable(bad as unknown as string, 1)).toThrow(new StorageError('variableName不能为空'))
    expect(() => readVariable(bad as unknown as string)).toThrow('variableName不能为空')
    expect(() => removeVariable(bad as unknown as string)).toThrow('variableName不能为空')
  }
  expect(set).not.toHaveBeenCalled()
  localeStore.setLocale('en')
  expect(() => readVariable('')).toThrow('variableName must not be empty')
})

test('download: no url is refused with the spec\'s message and nothing is asked; a url is asked for with a 60 s limit', async () => {
  localeStore.setLocale('zh')
  const spy = jest.spyOn(Taro, 'downloadFile').mockImplementation(((o: Taro.downloadFile.Option) =>
    Promise.resolve({ statusCode: 200, tempFilePath: `blob:${o.url}`, errMsg: 'downloadFile:ok' })) as never)
  for (const bad of ['', '  ', undefined, null]) await expect(download(bad)).rejects.toEqual(new DownloadError('url', '请提供下载地址'))
  expect(spy).not.toHaveBeenCalled()
  {
    const url = 'https://files.example.com/catalogue.pdf'
    expect(await download(url)).toBe(`blob:${url}`)
    expect(spy.mock.calls[0][0]).toMatchObject({ url, timeout: 60000, header: {} })
    // our own path: the API's base and headers
    await download('/api/data/export?table=prizes')
    expect(spy.mock.calls[1][0].url).toMatch(/\/api\/data\/export\?table=prizes$/)
    expect(spy.mock.calls[1][0].header).toMatchObject({ APP_TYPE: expect.any(String) })
    spy.mockImplementation((() => Promise.resolve({ statusCode: 404, tempFilePath: '', errMsg: 'ok' })) as never)
    await expect(download(url)).rejects.toEqual(new DownloadError('status', '下载失败'))
    spy.mockImplementation((() => Promise.reject(new Error('downloadFile:fail'))) as never)
    await expect(download(url)).rejects.toEqual(new DownloadError('failed', '下载失败'))
  }
})

test('AI payload rules: images by URL made absolute, the app id as user, an empty conversation for a new one', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { imageFile, aiApi } = require('@/services/ai') as typeof import('@/services/ai')
  expect(imageFile('/media/u/ab.png', 'https://shop.example')).toEqual({ type: 'image', transfer_method: 'remote_url', url: 'https://shop.example/media/u/ab.png' })
  expect(imageFile('https://cdn.example/x.png', 'https://shop.example').url).toBe('https://cdn.example/x.png')
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const request = require('@/services/request') as typeof import('@/services/request')
  const sent: unknown[] = []
  jest.spyOn(request, 'postRoute').mockImplementation(((_url: string, body: unknown) => { sent.push(body); return Promise.resolve({ answer: '', conversationId: '', messageId: '' }) }) as never)
  await aiApi.analysis('q', { prompt: 'p', images: ['/media/u/ab.png'] })
  await aiApi.translate('星际旅人', 'zh', 'en')
  expect(sent[0]).toMatchObject({ query: 'q', prompt: 'p', conversation_id: '', user: 'blindbox-shop', files: [{ type: 'image', transfer_method: 'remote_url', url: expect.stringMatching(/\/media\/u\/ab\.png$/) }] })
  expect(sent[1]).toEqual({ query: '星际旅人', from: 'zh', to: 'en', conversation_id: '', user: 'blindbox-shop' })
})

test("a path of ours gets the API base's origin when the base is absolute (the mini-program's location is Taro's stand-in, not the shop)", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { imageFile } = require('@/services/ai') as typeof import('@/services/ai')
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const config = require('@/config') as typeof import('@/config')
  const real = config.getConfig()
  const spy = jest.spyOn(config, 'getConfig').mockReturnValue({ ...real, apiBase: 'https://api.shop.test/dev-api' })
  try {
    expect(imageFile('/media/u/ab.png').url).toBe('https://api.shop.test/media/u/ab.png')
  } finally {
    spy.mockRestore()
  }
  // a relative base (H5 on the shop's own origin): this page's origin
  expect(imageFile('/media/u/ab.png').url).toBe(`${location.origin}/media/u/ab.png`)
})
