/**
 * The editor's list of who reported a post or comment (issue 48): each reporter masked with their
 * account id, the reason, their words, when, and whether the report counts toward hiding, in zh and en.
 */
import { render, cleanup } from '@testing-library/react'
import type { ShowReportEntry } from '~types/show'
import { localeStore } from '@/stores/locale'
import ModerationReports from '@/pagesA/editor/ModerationReports'

const reports: ShowReportEntry[] = [
  { reporterId: 41, reporterName: 'b***n', reason: 'fake', note: '图是网上的', createdAt: '2026-11-27T03:04:00.000Z', weighted: true, reviewed: false },
  { reporterId: 40, reporterName: 'n***1', reason: 'spam', note: null, createdAt: '2026-11-27T03:02:00.000Z', weighted: false, reviewed: false },
  { reporterId: 12, reporterName: 'o***d', reason: 'offensive', note: null, createdAt: '2026-11-26T10:00:00.000Z', weighted: true, reviewed: true }
]

afterEach(() => { cleanup(); localeStore.setLocale('zh') })

test.each([
  ['en', 'Who reported it', '1 counts toward hiding (3 hide it)', 'Counts', 'Does not count: no purchase', 'Before the last restore', 'Not a real pull'],
  ['zh', '举报记录', '其中 1 次计入隐藏（满 3 次自动隐藏）', '计入', '不计入：该账号没有购买记录', '上次恢复前的举报', '不是真实抽出']
])('%s: each reporter, reason, time and weight', (locale, title, counting, counts, noStake, reviewed, fake) => {
  localeStore.setLocale(locale as 'en' | 'zh')
  const { container } = render(<ModerationReports reports={reports} weightedCount={1} reportCount={2} />)
  const text = (sel: string) => container.querySelector(sel)?.textContent ?? ''
  expect(text('.moderation-reports__title')).toBe(title)
  expect(text('.moderation-reports__counting')).toBe(counting)
  expect(text('.moderation-report-41 .moderation-report__who')).toBe('b***n · #41')
  expect(text('.moderation-report-41 .moderation-report__reason')).toBe(fake)
  expect(text('.moderation-report-41 .moderation-report__time')).toMatch(/^2026-11-2\d \d\d:\d\d$/)
  expect(text('.moderation-report-41 .moderation-report__tag')).toBe(counts)
  expect(text('.moderation-report-41 .moderation-report__note')).toBe('“图是网上的”')
  expect(text('.moderation-report-40 .moderation-report__tag')).toBe(noStake)
  expect(container.querySelector('.moderation-report-40 .moderation-report__note')).toBeNull()
  expect(text('.moderation-report-12 .moderation-report__tag')).toBe(reviewed)
  expect(container.querySelector('.moderation-report-12')!.className).toContain('moderation-report--reviewed')
})

test('nothing reported: nothing shown; all dealt with: no count line', () => {
  localeStore.setLocale('en')
  expect(render(<ModerationReports reports={[]} weightedCount={0} reportCount={0} />).container.innerHTML).toBe('')
  const { container } = render(<ModerationReports reports={[reports[2]]} weightedCount={0} reportCount={0} />)
  expect(container.querySelector('.moderation-reports__counting')).toBeNull()
  expect(container.querySelectorAll('.moderation-report')).toHaveLength(1)
})
