/**
 * The server's messages (issue 21), in zh and en: a shopper reads them as they are, so none speaks of
 * configuration ("not configured", environment variable names): a missing provider is named as
 * something "this shop does not offer"; the credit has one name (抵扣金 / credit); and every mail and
 * SMS the shop sends carries the shop's name (拾盒 / Pickbox), as the app calls itself.
 * The answers themselves (a provider's 422, a code mail's subject) are checked through the API on both
 * databases in login-settings.test.ts and code-login.test.ts.
 */
import fs from 'node:fs'
import { isMessageKey, translate, type MessageKey } from '../../server/src/i18n/messages'
import type { ProviderName } from '../../server/src/core/errors'
import { configWordIn, OTHER_CREDIT_NAMES } from '../support/configWords'

const SOURCE = fs.readFileSync(require.resolve('../../server/src/i18n/messages.ts'), 'utf8')
const KEYS = [...new Set([...SOURCE.matchAll(/^ {2}'?([\w.]+)'?:/gm)].map(m => m[1]))].filter(isMessageKey) as MessageKey[]
const PROVIDERS: ProviderName[] = ['sms', 'mail', 'weapp', 'wechat', 'wechatpay', 'tencentMap', 'amap', 'kuaidi100', 'feishu', 'wecom', 'tts', 'ai', 'ocr', 'imageGen', 'pdf', 'video', 'music', 'jdUnion', 'juheTrain', 'juheFlight', 'media']
const SHOP = { zh: '拾盒', en: 'Pickbox' } as const
/** What the shop sends to a person's phone or mailbox. */
const SENT = KEYS.filter(k => /^(code\.(smsText|mailSubject)|security\.(bind|reauth)(Sms|Mail)Text|complaint\.replyMail(Title|Text)|guardian\.smsText)$/.test(k))

test('the catalogue was read', () => {
  expect(KEYS.length).toBeGreaterThan(250)
  expect(SENT.length).toBe(9)
})

describe.each(['zh', 'en'] as const)('%s', (lang) => {
  test('no message holds configuration words', () => {
    expect(KEYS.map(k => [k, translate(lang, k)]).filter(([, v]) => configWordIn(v))).toEqual([])
  })

  test('a missing provider, whichever it is, reads as something the shop does not offer', () => {
    for (const p of PROVIDERS) {
      const message = translate(lang, 'provider.notConfigured', { provider: `@provider.${p}` })
      expect(configWordIn(message)).toBeNull()
      expect(message).toContain(translate(lang, `provider.${p}` as MessageKey))
    }
    expect(translate(lang, 'provider.notConfigured', { provider: '@provider.tts' }))
      .toBe(lang === 'zh' ? '这个商城暂不提供语音合成' : 'Text to speech is not available in this shop')
  })

  test('one name for the credit', () => {
    expect(KEYS.map(k => [k, translate(lang, k)]).filter(([, v]) => OTHER_CREDIT_NAMES.test(v))).toEqual([])
    expect(translate(lang, 'security.deleteForfeit', { credit: 1, prizes: 0, cards: 0 })).toMatch(lang === 'zh' ? /抵扣金/ : /credit/)
  })

  test('mails and SMS carry the shop\'s name', () => {
    for (const k of SENT) expect([k, translate(lang, k)]).toEqual([k, expect.stringContaining(SHOP[lang])])
    expect(KEYS.filter(k => /盲盒商店|Blind Box Shop/i.test(translate(lang, k)))).toEqual([])
  })
})
