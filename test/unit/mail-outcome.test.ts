/**
 * Issue 48: the operator's toast after a mail follows the channel the server names; a mail only printed in
 * the development log is never "sent" (zh and en say "development only: printed in the server's log").
 */
import { localeStore } from '@/stores/locale'
import { mailSentToast, replyToast } from '@/pagesA/editor/mailOutcome'
import { contactHint } from '@/pagesA/profile/complaintForm'
import type { LoginSettings } from '~types/accounts'

afterEach(() => { localeStore.setLocale('zh') })

describe('the toast after a complaint reply', () => {
  it.each(['zh', 'en'] as const)('dev_log says development only, printed in the log, and not mailed (%s)', (locale) => {
    localeStore.setLocale(locale)
    const dev = replyToast('dev_log')
    expect(dev.level).toBe('none')
    expect(dev.message).toMatch(locale === 'zh' ? /仅用于开发.*服务器日志/ : /development only: printed in the server's log/)
    expect(dev.message).not.toBe(replyToast('sent').message)
  })

  it('sent, failed and not asked keep their own words', () => {
    localeStore.setLocale('zh')
    expect(replyToast('sent')).toEqual({ message: '已回复，并已发到用户邮箱', level: 'success' })
    expect(replyToast('failed')).toEqual({ message: '已回复，但邮件没有发出去', level: 'none' })
    expect(replyToast('not_asked').message).not.toMatch(/邮箱|邮件/)
  })
})

describe('the toast after mailing a shopper', () => {
  it('a real mail is "sent to"; a log-only one says it was not sent, in zh and en', () => {
    localeStore.setLocale('en')
    expect(mailSentToast({ mail: 'a@b.test', title: 'T', channel: 'mail' })).toEqual({ message: 'Sent to a@b.test', level: 'success' })
    expect(mailSentToast({ mail: 'a@b.test', title: 'T', channel: 'dev_log' })).toEqual({ message: 'Not sent to a@b.test: mail is development only, printed in the server\'s log', level: 'none' })
    localeStore.setLocale('zh')
    expect(mailSentToast({ mail: 'a@b.test', title: 'T', channel: 'dev_log' }).message).toBe('没有发给 a@b.test：邮件仅用于开发，只打印在服务器日志中')
  })
})

describe('the complaint form\'s contact hint (shoppers)', () => {
  // only the fields the hint reads; the rest of the public settings do not matter here
  const settings = (over: Partial<LoginSettings>) => ({ email: true, ...over }) as LoginSettings
  it('promises a mailed reply only when mail reaches people; never names configuration', () => {
    localeStore.setLocale('en')
    expect(contactHint(settings({}))).toBe('The reply may also be mailed here')
    for (const s of [settings({ devLogOnly: ['email'] }), settings({ email: false }), null]) {
      expect(contactHint(s)).toBe('The reply will appear under "My messages" below')
    }
    expect(contactHint(settings({ devLogOnly: ['sms'] }))).toBe('The reply may also be mailed here')
    localeStore.setLocale('zh')
    expect(contactHint(settings({ devLogOnly: ['email'] }))).toBe('回复会显示在下方“我的留言”里')
  })
})
