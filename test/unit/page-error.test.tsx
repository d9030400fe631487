/**
 * A page that fails while rendering (components/PageError, wrapped around every page by withPageError):
 * the shopper sees what happened in their language, in the page's shell, and can load the page again
 * (the same route and query) or go back; the error is reported. Every page exports itself wrapped.
 */
import fs from 'node:fs'
import path from 'node:path'
import { act, cleanup, fireEvent, render } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import PageShell from '@/components/PageShell'
import { withPageError } from '@/components/PageError/wrap'
import { localeStore } from '@/stores/locale'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never

/** A page whose own render throws (a field the server did not send), as a page exports itself. */
const Broken = withPageError(function BrokenPage (): never {
  throw new Error('render failed: prize is undefined')
})

beforeEach(() => {
  Current.router = { path: '/pagesA/prize_detail/index', params: { prizeId: '7' }, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  // React logs a caught render error; the app's report logs it too
  jest.spyOn(console, 'error').mockImplementation(() => undefined)
})
afterEach(() => { cleanup(); jest.restoreAllMocks() })

it.each([['zh', '这个页面出了点问题', '重新加载', '返回'], ['en', 'Something went wrong on this page', 'Reload', 'Back']] as const)('%s: says so and offers to reload or go back, and reports the error', async (locale, text, reload, back) => {
  await localeStore.setLocale(locale)
  const { container } = render(<Broken />)
  expect(container.querySelector('.page-error__text')!.textContent).toContain(text)
  expect(container.querySelector('.page-error__reload')!.textContent).toBe(reload)
  expect(container.querySelector('.page-error__back')!.textContent).toBe(back)
  expect((console.error as jest.Mock).mock.calls.some(c => String(c[0]) === '[error]' && String(c[1]).includes('prize is undefined'))).toBe(true)
})

it('reload opens the same page with its query; back goes to the previous page, or to the entry page when there is none', async () => {
  await localeStore.setLocale('zh')
  const pages = jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: 'pagesA/prize_detail/index', options: { prizeId: '7' } }] as never)
  const redirect = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
  const relaunch = jest.spyOn(Taro, 'reLaunch').mockImplementation(ok)
  const backTo = jest.spyOn(Taro, 'navigateBack').mockImplementation(ok)
  const { container } = render(<Broken />)
  await act(async () => { fireEvent.click(container.querySelector('.page-error__reload')!) })
  expect(redirect).toHaveBeenCalledWith({ url: '/pagesA/prize_detail/index?prizeId=7' })
  await act(async () => { fireEvent.click(container.querySelector('.page-error__back')!) })
  expect(relaunch).toHaveBeenCalledWith({ url: '/pages/login/index' })
  pages.mockReturnValue([{ route: 'pagesA/home/index' }, { route: 'pagesA/prize_detail/index', options: { prizeId: '7' } }] as never)
  await act(async () => { fireEvent.click(container.querySelector('.page-error__back')!) })
  expect(backTo).toHaveBeenCalled()
})

it('a page that renders is shown as it is', () => {
  const Fine = withPageError(function FinePage () { return <PageShell><span className='fine'>ok</span></PageShell> })
  const { container } = render(<Fine />)
  expect(container.querySelector('.fine')).not.toBeNull()
  expect(container.querySelector('.page-error')).toBeNull()
})

it('every page exports itself inside the boundary', () => {
  const root = path.resolve(__dirname, '../../src')
  const pages = ['pages', 'pagesA'].flatMap(dir => fs.readdirSync(path.join(root, dir)).map(p => path.join(root, dir, p, 'index.tsx')))
  const bare = pages.filter(f => !/^export default withPageError\(/m.test(fs.readFileSync(f, 'utf8')))
  // 17, and the player show's feed and post (issue 27)
  expect(pages.length).toBe(19)
  expect(bare).toEqual([])
})
