import fs from 'node:fs'
import path from 'node:path'
import Taro from '@tarojs/taro'
import { dialog, loading, toast } from '@/utils/feedback'
import { localeStore } from '@/stores/locale'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never

afterEach(() => jest.restoreAllMocks())

it('toast defaults: message "done", 3000 ms, level none', async () => {
  localeStore.setLocale('en')
  const spy = jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  await toast()
  expect(spy).toHaveBeenCalledWith({ title: 'done', icon: 'none', duration: 3000 })
  await toast({ message: 'hi', duration: 1000, level: 'success' })
  expect(spy).toHaveBeenLastCalledWith({ title: 'hi', icon: 'success', duration: 1000 })
  await toast('plain')
  expect(spy).toHaveBeenLastCalledWith({ title: 'plain', icon: 'none', duration: 3000 })
})

it('dialog passes title, message, confirmText, cancelText with confirm/cancel defaults and resolves the choice', async () => {
  localeStore.setLocale('zh')
  const spy = jest.spyOn(Taro, 'showModal').mockImplementation(() => Promise.resolve({ confirm: true, cancel: false, errMsg: 'ok' }) as never)
  expect(await dialog({ title: 'T', message: 'M' })).toBe(true)
  expect(spy).toHaveBeenCalledWith({ title: 'T', content: 'M', confirmText: '确定', cancelText: '取消', showCancel: true, confirmColor: '#d12c3a' })
  spy.mockImplementation(() => Promise.resolve({ confirm: false, cancel: true, errMsg: 'ok' }) as never)
  expect(await dialog({ confirmText: 'Yes', cancelText: 'No' })).toBe(false)
  expect(spy).toHaveBeenLastCalledWith(expect.objectContaining({ confirmText: 'Yes', cancelText: 'No' }))
})

it('the confirm button is the app\'s theme colour (src/app.scss --c-brand), never the platform\'s green', async () => {
  const spy = jest.spyOn(Taro, 'showModal').mockImplementation(() => Promise.resolve({ confirm: true, cancel: false, errMsg: 'ok' }) as never)
  await dialog({ title: 'T' })
  const brand = /--c-brand:\s*(#[0-9a-f]{6})/i.exec(fs.readFileSync(path.resolve(__dirname, '../../src/app.scss'), 'utf8'))![1]
  expect(spy.mock.calls[0][0]!.confirmColor?.toLowerCase()).toBe(brand.toLowerCase())
  // WeChat takes a hex colour there
  expect(spy.mock.calls[0][0]!.confirmColor).toMatch(/^#[0-9a-fA-F]{6}$/)
})

it('loading stays up while any task runs and hides once', async () => {
  const show = jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
  const hide = jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
  let release!: () => void
  const slow = loading.wrap(new Promise<void>(r => { release = r }))
  const fast = loading.wrap(async () => 5)
  expect(await fast).toBe(5)
  expect(hide).not.toHaveBeenCalled()
  expect(loading.active).toBe(true)
  release()
  await slow
  expect(show).toHaveBeenCalledTimes(1)
  expect(hide).toHaveBeenCalledTimes(1)
  expect(loading.active).toBe(false)
  await expect(loading.wrap(Promise.reject(new Error('x')))).rejects.toThrow('x')
  expect(loading.active).toBe(false)
})

it('a button text too long for the platform (over 4 Chinese characters, a Latin letter half) falls back to the default instead of the dialog failing', async () => {
  const spy = jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
  expect(await dialog({ confirmText: 'Publish anyway', cancelText: '仍要取消上架' })).toBe(true)
  expect(spy).toHaveBeenLastCalledWith(expect.objectContaining({ confirmText: '确定', cancelText: '取消' }))
  await dialog({ confirmText: '仍要上架', cancelText: 'Go back' })
  expect(spy).toHaveBeenLastCalledWith(expect.objectContaining({ confirmText: '仍要上架', cancelText: 'Go back' }))
  spy.mockRestore()
})
