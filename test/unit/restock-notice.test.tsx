/**
 * "Notify me when restocked" (src/pagesA/blind_box_detail/RestockNotice.tsx) when the shop has no way to
 * tell this shopper (no mail server, and WeChat's message is the mini-program's, not a browser's): no
 * button that could only fail, but where the restock will show, in Chinese and English, with no
 * configuration words. With mail open the button is there; a visitor is asked to log in first. The typed
 * call is spied on.
 */
import { act, cleanup, render } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { RestockReminderState } from '~types/restock'
import { localeStore } from '@/stores/locale'
import { tokenStorage } from '@/services/token'
import { restockApi } from '@/services/restock'
import RestockNotice from '@/pagesA/blind_box_detail/RestockNotice'

const flush = () => act(async () => { await new Promise(r => setTimeout(r, 0)) })
const state = (over: Partial<RestockReminderState>): RestockReminderState => ({ channels: [], wechatTemplateId: null, accountEmail: false, mine: null, ...over })
const CONFIG_WORDS = /config|SMTP|template|WECHAT|not set up|未配置/i

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
})
afterEach(() => {
  cleanup()
  jest.restoreAllMocks()
  tokenStorage.set('')
  localeStore.setLocale('zh')
})

describe.each([
  ['zh', '补货后会在这个页面上架或公布开售时间，记得回来看看', '补货时通知我', '登录后可以设置补货通知'],
  ['en', 'When it is restocked, this page shows it (a new drop with its start time, or boxes on sale): check back here', 'Notify me when restocked', 'Log in to be notified when it is restocked']
] as const)('in %s', (locale, noChannel, button, logIn) => {
  beforeEach(() => { localeStore.setLocale(locale) })

  test.each([
    ['no channel at all', [] as RestockReminderState['channels']],
    ['only WeChat\'s message, in a browser', ['wechat'] as RestockReminderState['channels']]
  ])('%s: no button, where the restock will show', async (_, channels) => {
    tokenStorage.set('a-token')
    const asked = jest.spyOn(restockApi, 'state').mockResolvedValue(state({ channels, wechatTemplateId: channels.length ? 'tpl' : null }))
    const { container } = render(<RestockNotice seriesId={7} />)
    await flush()
    expect(asked).toHaveBeenCalledWith(7)
    expect(container.querySelector('.restock--none')?.textContent).toBe(noChannel)
    expect(container.querySelector('.restock-notify')).toBeNull()
    expect(container.textContent).not.toMatch(CONFIG_WORDS)
  })

  test('mail open: the button; a visitor: log in first, and nothing asked', async () => {
    tokenStorage.set('a-token')
    jest.spyOn(restockApi, 'state').mockResolvedValue(state({ channels: ['mail'], accountEmail: true }))
    const { container, unmount } = render(<RestockNotice seriesId={7} />)
    await flush()
    expect(container.querySelector('.restock-notify')?.textContent).toContain(button)
    expect(container.querySelector('.restock--none')).toBeNull()
    unmount()

    tokenStorage.set('')
    const asked = jest.spyOn(restockApi, 'state')
    asked.mockClear()
    const visitor = render(<RestockNotice seriesId={7} />)
    await flush()
    expect(visitor.container.querySelector('.restock__hint')?.textContent).toBe(logIn)
    expect(asked).not.toHaveBeenCalled()
  })
})
