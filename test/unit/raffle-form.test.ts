/**
 * The editor's drop form for a raffle (pagesA/editor/dropForm.ts): entries close after the start and
 * within the longest entry period, the winners' minutes in range, and the cap per account it needs;
 * each problem names its field, in both languages. The form's copy of the limits is the server's.
 */
import { TextDecoder, TextEncoder } from 'node:util'
import { localeStore } from '@/stores/locale'
import { dropProblems, RAFFLE_FORM_LIMITS } from '@/pagesA/editor/dropForm'

const NOW = Date.parse('2026-11-28T04:00:00Z') // 12:00 in China
const room = { seriesId: 1, drops: [], casesFillable: 10, hiddenFree: 2, hasHidden: true }
const form = { cases: '4', hiddenCases: '1', startsAt: '2026-11-28 13:00', boxesPerAccount: '2', closesAt: '2026-11-29 13:00', claimMinutes: '60' }

afterAll(() => localeStore.setLocale('zh'))

test('the form\'s limits are the server\'s', () => {
  // typebox (under types/raffle.ts) wants the encoders jsdom leaves out
  Object.assign(globalThis, { TextEncoder, TextDecoder })
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { RAFFLE_LIMITS } = require('~types/raffle') as typeof import('~types/raffle')
  expect(RAFFLE_FORM_LIMITS).toEqual(RAFFLE_LIMITS)
})

test('a raffle\'s problems, each naming its field, in both languages', () => {
  localeStore.setLocale('en')
  expect(dropProblems(form, room, NOW)).toEqual({})
  expect(dropProblems({ ...form, closesAt: '2026-11-28 12:59' }, room, NOW)).toEqual({ closesAt: 'Entries close: must be after the sale starts' })
  expect(dropProblems({ ...form, closesAt: '2026-12-29 13:01' }, room, NOW)).toEqual({ closesAt: 'Entries close: entries can stay open for at most 30 days' })
  expect(dropProblems({ ...form, closesAt: 'soon' }, room, NOW).closesAt).toMatch(/^Entries close: enter the time as/)
  expect(dropProblems({ ...form, claimMinutes: '4' }, room, NOW)).toEqual({ claimMinutes: 'Minutes each winner has to buy: enter a whole number from 5 to 10080' })
  expect(dropProblems({ ...form, claimMinutes: '10081' }, room, NOW).claimMinutes).toBeDefined()
  expect(dropProblems({ ...form, claimMinutes: '10080' }, room, NOW)).toEqual({})
  expect(dropProblems({ ...form, boxesPerAccount: '' }, room, NOW)).toEqual({ boxesPerAccount: 'Most boxes per account: a raffle needs it (the places are counted from it)' })
  localeStore.setLocale('zh')
  expect(dropProblems({ ...form, closesAt: '2026-11-28 12:00' }, room, NOW)).toEqual({ closesAt: '报名截止时间：要晚于开售时间' })
  expect(dropProblems({ ...form, claimMinutes: '2.5' }, room, NOW)).toEqual({ claimMinutes: '中签者可购买的分钟数：请填 5 到 10080 的整数' })
  expect(dropProblems({ ...form, boxesPerAccount: ' ' }, room, NOW).boxesPerAccount).toMatch(/^每个账号最多买几盒：抽签发售必须填写/)
  // without a raffle: no cap needed, its fields not looked at
  const { closesAt, claimMinutes, ...plain } = form
  expect(dropProblems({ ...plain, boxesPerAccount: '' }, room, NOW)).toEqual({})
  expect([closesAt, claimMinutes]).toHaveLength(2)
})
