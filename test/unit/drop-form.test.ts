/**
 * The editor's drop form (pagesA/editor/dropForm.ts): China time read to the minute (a date that does
 * not exist is refused), and each field's problem in the operator's words, by the rules the server
 * applies (the counts, the free stock, the hidden design, the start).
 */
import { localeStore } from '@/stores/locale'
import { dropProblems, parseChinaTime } from '@/pagesA/editor/dropForm'
import { countdownText } from '@/pagesA/blind_box_detail/countdown'

const NOW = Date.parse('2026-11-28T04:00:00Z') // 12:00 in China
const room = { seriesId: 1, drops: [], casesFillable: 10, hiddenFree: 2, hasHidden: true }

test('China time to the minute; dates that do not exist and other shapes are refused', () => {
  expect(parseChinaTime('2026-11-28 20:00')).toBe(Date.parse('2026-11-28T12:00:00Z'))
  expect(parseChinaTime(' 2026-12-01T08:30 ')).toBe(Date.parse('2026-12-01T00:30:00Z'))
  for (const bad of ['2026-02-30 10:00', '2026-11-28 24:00', '2026-11-28', '28/11/2026 20:00', '2026-11-28 8:00', '']) expect([bad, parseChinaTime(bad)]).toEqual([bad, null])
})

test('each field\'s problem, in both languages', () => {
  localeStore.setLocale('en')
  const form = { cases: '4', hiddenCases: '1', startsAt: '2026-11-28 13:00' }
  expect(dropProblems(form, room, NOW)).toEqual({})
  expect(dropProblems({ ...form, cases: '11' }, room, NOW)).toEqual({ cases: 'The free stock fills at most 10 cases' })
  expect(dropProblems({ ...form, cases: '0' }, room, NOW).cases).toMatch(/from 1 to 5000/)
  expect(dropProblems({ ...form, cases: '2.5' }, room, NOW).cases).toMatch(/whole number/)
  expect(dropProblems({ ...form, hiddenCases: '5' }, room, NOW)).toEqual({ hiddenCases: 'Cannot be more than the cases' })
  expect(dropProblems({ ...form, hiddenCases: '3' }, room, NOW)).toEqual({ hiddenCases: 'Only 2 hidden figures are free' })
  expect(dropProblems({ ...form, hiddenCases: '1' }, { ...room, hasHidden: false }, NOW)).toEqual({ hiddenCases: 'This series has no hidden design: enter 0' })
  expect(dropProblems({ ...form, startsAt: '2026-11-28 11:00' }, room, NOW)).toEqual({ startsAt: 'This time has passed: enter now or later' })
  // a start within the last minutes is "now"
  expect(dropProblems({ ...form, startsAt: '2026-11-28 11:58' }, room, NOW)).toEqual({})
  expect(dropProblems({ ...form, startsAt: '2027-03-01 12:00' }, room, NOW)).toEqual({ startsAt: 'At most 90 days ahead' })
  localeStore.setLocale('zh')
  expect(dropProblems({ ...form, cases: '11' }, room, NOW)).toEqual({ cases: '空闲库存最多够装 10 箱' })
  expect(dropProblems({ ...form, startsAt: 'tomorrow' }, room, NOW)).toEqual({ startsAt: '请按 2026-12-01 20:00 的格式填写' })
})

test('the countdown past a day names the days', () => {
  localeStore.setLocale('en')
  expect(countdownText(65)).toBe('1:05')
  expect(countdownText(3725)).toBe('1:02:05')
  expect(countdownText(2 * 86_400 + 3725)).toBe('2 d 1:02:05')
  localeStore.setLocale('zh')
  expect(countdownText(86_400 + 5)).toBe('1 天 0:05')
})
