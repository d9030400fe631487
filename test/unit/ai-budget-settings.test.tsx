/**
 * The daily AI budgets in the shop settings form (issue 48): both are whole numbers in their range
 * (0 turns the AI calls off), checked beside the field before anything is sent, and today's use
 * against them (POST /api/operator/aiUsage) is shown beside them, read again after a save.
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { AI_BUDGET, DEFAULT_SHOP_SETTINGS } from '~types/limits'
import { localeStore } from '@/stores/locale'
import { operatorApi } from '@/services/afterDraw'
import { aiApi } from '@/services/ai'
import SettingsTab from '@/pagesA/editor/SettingsTab'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const text = (c: Element | null) => c?.textContent || ''
const flush = () => act(async () => { for (let i = 0; i < 6; i++) await new Promise(r => setTimeout(r, 0)) })
const type = (el: Element, value: string) => act(() => { el.dispatchEvent(new CustomEvent('input', { detail: { value }, bubbles: true })) })
const click = async (el: Element) => { await act(async () => { fireEvent.click(el) }); await flush() }
const input = (c: Element, key: string) => c.querySelector(`.op-setting-${key} input, .op-setting-${key} .editor-input`)!
const USAGE = { day: '2026-03-01', shopUsed: 1234, perShop: AI_BUDGET.perShopDefault, perAccount: AI_BUDGET.perAccountDefault, accountMostUsed: 57, accountsAtBudget: 2 }

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
  localeStore.setLocale('en')
})
afterEach(() => { cleanup(); jest.restoreAllMocks() })

const open = async () => {
  jest.spyOn(operatorApi, 'settings').mockResolvedValue(DEFAULT_SHOP_SETTINGS)
  const usage = jest.spyOn(aiApi, 'usage').mockResolvedValue(USAGE)
  const view = render(<SettingsTab />)
  await flush()
  return { ...view, usage }
}

it("today's use is shown beside each budget, in both languages", async () => {
  const { container } = await open()
  expect((input(container, 'aiDailyPerShop') as HTMLInputElement).value ?? text(input(container, 'aiDailyPerShop'))).toBe(String(AI_BUDGET.perShopDefault))
  expect(text(container.querySelector('.op-setting-aiDailyPerShop'))).toContain(`Used today by the whole shop: 1234 of ${AI_BUDGET.perShopDefault}`)
  expect(text(container.querySelector('.op-setting-aiDailyPerAccount'))).toContain('Most used today by one account: 57; accounts at their limit: 2')
  cleanup()
  localeStore.setLocale('zh')
  const zh = await open()
  expect(text(zh.container.querySelector('.op-setting-aiDailyPerShop'))).toContain(`今天全店已用 1234 / ${AI_BUDGET.perShopDefault} 次`)
  expect(text(zh.container.querySelector('.op-setting-aiDailyPerAccount label, .op-setting-aiDailyPerAccount .editor-label'))).toBe('每个账号每天的 AI 次数')
})

it('a budget out of range or not a whole number is said beside it and nothing is sent; a good one is saved and the use read again', async () => {
  const save = jest.spyOn(operatorApi, 'saveSettings').mockResolvedValue({ ...DEFAULT_SHOP_SETTINGS, aiDailyPerAccount: 20 })
  const { container, usage } = await open()
  for (const bad of ['-1', '2.5', String(AI_BUDGET.perAccountMax + 1)]) {
    await type(input(container, 'aiDailyPerAccount'), bad)
    expect(text(container.querySelector('.op-setting-aiDailyPerAccount'))).toContain(`From 0 to ${AI_BUDGET.perAccountMax}`)
    await click(container.querySelector('.op-settings__save')!)
    expect(save).not.toHaveBeenCalled()
  }
  await type(input(container, 'aiDailyPerAccount'), '20')
  const reads = usage.mock.calls.length
  await click(container.querySelector('.op-settings__save')!)
  expect(save).toHaveBeenCalledWith({ aiDailyPerAccount: 20 })
  expect(usage.mock.calls.length).toBeGreaterThan(reads)
})
