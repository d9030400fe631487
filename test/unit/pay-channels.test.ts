/** Payment channels per platform: the mini-program never offers WeChat H5 pay, a browser never JSAPI. */
import type { PayMethod } from '~types/shop'
import { channelsForPlatform } from '@/services/shop'

const method = (channel: PayMethod['channel']): PayMethod => ({ channel, label: { zh: channel, en: channel }, sandbox: channel === 'sandbox' })
const all = [method('sandbox'), method('wechat_jsapi'), method('wechat_h5')]
const channels = (platform: string) => channelsForPlatform(all, platform).map(m => m.channel)

test('the mini-program keeps JSAPI and drops H5 pay', () => {
  expect(channels('weapp')).toEqual(['sandbox', 'wechat_jsapi'])
})

test('a browser keeps H5 pay and drops JSAPI', () => {
  expect(channels('h5')).toEqual(['sandbox', 'wechat_h5'])
})

test('the order of the server is kept and nothing is added', () => {
  expect(channelsForPlatform([method('wechat_h5')], 'weapp')).toEqual([])
  expect(channelsForPlatform([method('wechat_jsapi'), method('sandbox')], 'h5').map(m => m.channel)).toEqual(['sandbox'])
})
