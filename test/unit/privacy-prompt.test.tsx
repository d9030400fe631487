/**
 * The privacy prompt (src/components/PrivacyPrompt) in zh and en: shown while WeChat holds a private call
 * (stores/privacy), its agree button of open-type agreePrivacyAuthorization and the id resolve names,
 * decline letting the held call fail, and "read the guide" opening WeChat's page of it. Nothing on H5.
 */
import { act, cleanup, fireEvent, render } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { localeStore } from '@/stores/locale'
import { PRIVACY_AGREE_BUTTON_ID, privacyStore } from '@/stores/privacy'
import PrivacyPrompt from '@/components/PrivacyPrompt'

const taro = Taro as unknown as Record<string, unknown>

afterEach(() => {
  cleanup()
  privacyStore.decline()
  process.env.TARO_ENV = 'h5'
  delete taro.openPrivacyContract
})

test.each([
  ['zh', '用户隐私保护提示', '《拾盒隐私保护指引》', '同意并继续', '拒绝'],
  ['en', 'Your privacy', 'the Pickbox Privacy Guide', 'Agree', 'Decline']
] as const)('%s: shown only while a call is held; decline answers disagree, the guide opens', (locale, title, contract, agree, decline) => {
  process.env.TARO_ENV = 'weapp'
  localeStore.setLocale(locale)
  const opened = jest.fn()
  taro.openPrivacyContract = opened
  const { container } = render(<PrivacyPrompt />)
  expect(container.querySelector('.privacy-prompt')).toBeNull()
  const resolve = jest.fn()
  act(() => { privacyStore.need(resolve) })
  const text = container.textContent || ''
  for (const part of [title, contract, agree, decline]) expect(text).toContain(part)
  const agreeButton = container.querySelector(`#${PRIVACY_AGREE_BUTTON_ID}`)
  expect(agreeButton?.getAttribute('open-type') ?? (agreeButton as unknown as { openType?: string })?.openType).toBe('agreePrivacyAuthorization')
  fireEvent.click(container.querySelector('.privacy-prompt__contract') as Element)
  expect(opened).toHaveBeenCalledTimes(1)
  act(() => { fireEvent.click(container.querySelector('.privacy-prompt__decline') as Element) })
  expect(resolve).toHaveBeenLastCalledWith({ event: 'disagree' })
  expect(container.querySelector('.privacy-prompt')).toBeNull()
})

test('H5: nothing, even with a call held', () => {
  process.env.TARO_ENV = 'h5'
  const { container } = render(<PrivacyPrompt />)
  act(() => { privacyStore.need(jest.fn()) })
  expect(container.querySelector('.privacy-prompt')).toBeNull()
})
