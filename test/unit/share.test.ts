/**
 * Sharing (issue 24 item 4, spec 8's "unsupported share type"): which types each platform has, the
 * message for the others in both languages, the mini-program path and query of the page on top, and
 * an H5 share of the mini-program's URL link (POST /get_mp_url) copied where there is no share sheet.
 */
import Taro from '@tarojs/taro'
import { accountApi } from '@/services/account'
import { localeStore } from '@/stores/locale'
import { ShareError, miniProgramTarget, sharePage, shareUnsupported } from '@/utils/share'

afterEach(() => { jest.restoreAllMocks() })

test('each type where the platform has it', () => {
  const h5 = { h5: true, miniProgram: true }
  const h5Alone = { h5: true, miniProgram: false }
  const weapp = { h5: false, miniProgram: true }
  expect(['wechat', 'miniProgram', 'link', 'poster'].map(type => shareUnsupported(type, h5))).toEqual([true, false, false, true])
  expect(['wechat', 'miniProgram', 'link'].map(type => shareUnsupported(type, h5Alone))).toEqual([true, true, false])
  expect(['wechat', 'miniProgram', 'link'].map(type => shareUnsupported(type, weapp))).toEqual([false, true, true])
})

test('a type the platform has not: "unsupported share type" in the user\'s language, and nothing is asked', async () => {
  const mpUrl = jest.spyOn(accountApi, 'mpUrl')
  localeStore.setLocale('en')
  await expect(sharePage('poster', 'x', { h5: true, miniProgram: true })).rejects.toEqual(new ShareError('unsupported share type'))
  localeStore.setLocale('zh')
  await expect(sharePage('miniProgram', 'x', { h5: true, miniProgram: false })).rejects.toThrow('不支持的分享方式')
  expect(mpUrl).not.toHaveBeenCalled()
})

test('the mini-program link of the page on top, handed over or copied', async () => {
  jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: 'pagesA/blind_box_detail/index', options: { seriesId: '3', $taroTimestamp: '1' } }] as never)
  expect(miniProgramTarget()).toEqual({ path: 'pagesA/blind_box_detail/index', query: 'seriesId=3' })
  const mpUrl = jest.spyOn(accountApi, 'mpUrl').mockResolvedValue({ url: 'https://wxaurl.cn/AbCdEf123456' })
  const copy = jest.spyOn(Taro, 'setClipboardData').mockResolvedValue({ errMsg: 'setClipboardData:ok' } as never)
  await expect(sharePage('miniProgram', '萌宠乐园', { h5: true, miniProgram: true })).resolves.toBe('copied')
  expect(mpUrl).toHaveBeenCalledWith({ path: 'pagesA/blind_box_detail/index', query: 'seriesId=3' })
  expect(copy).toHaveBeenCalledWith({ data: 'https://wxaurl.cn/AbCdEf123456' })
  // a phone with a share sheet gets it there, and nothing is copied
  const share = jest.fn().mockResolvedValue(undefined)
  Object.defineProperty(navigator, 'share', { value: share, configurable: true })
  try {
    await expect(sharePage('miniProgram', '萌宠乐园', { h5: true, miniProgram: true })).resolves.toBe('shared')
    expect(share).toHaveBeenCalledWith({ title: '萌宠乐园', url: 'https://wxaurl.cn/AbCdEf123456' })
    expect(copy).toHaveBeenCalledTimes(1)
  } finally {
    delete (navigator as unknown as Record<string, unknown>).share
  }
})
