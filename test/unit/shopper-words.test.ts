/**
 * Words in the app's dictionaries (issue 21): a shopper never reads configuration words ("not
 * configured", "未配置", environment variable names); the one exception is the operators' Settings tab
 * (opSettings: its list of services says what is on and what to set). And the credit has one name
 * per language: 抵扣金 / credit, never 赠送金, 积分 or "points".
 */
import zhCore from '@/locales/zh/core'
import zhRest from '@/locales/zh/rest'
import enCore from '@/locales/en/core'
import enRest from '@/locales/en/rest'
import { SERVICES } from '@/pagesA/editor/services'
import { configWordIn, OTHER_CREDIT_NAMES } from '../support/configWords'

type Tree = { [k: string]: string | Tree }
function leaves (tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`)))
}
const DICTS = {
  zh: leaves({ ...zhCore, ...zhRest } as unknown as Tree),
  en: leaves({ ...enCore, ...enRest } as unknown as Tree)
}
/** The operators' Settings tab: where what to configure is said. */
const OPERATOR_SETTINGS = /^opSettings\./

describe.each(['zh', 'en'] as const)('%s dictionary', (lang) => {
  test('no configuration words outside the operators\' Settings tab', () => {
    const found = DICTS[lang].filter(([k, v]) => !OPERATOR_SETTINGS.test(k) && configWordIn(v)).map(([k, v]) => `${k}: ${v}`)
    expect(found).toEqual([])
  })

  test('one name for the credit', () => {
    expect(DICTS[lang].filter(([, v]) => OTHER_CREDIT_NAMES.test(v)).map(([k, v]) => `${k}: ${v}`)).toEqual([])
    const name = lang === 'zh' ? /抵扣金/ : /\bcredit\b/i
    // the wallet, recycling, shipping and the props all call it by that name
    for (const key of ['recharge.credit', 'collection.recycleBody', 'collection.recycled_done', 'ship.rule', 'props.credit', 'props.buyCredit']) {
      expect([key, DICTS[lang].find(([k]) => k === key)?.[1]]).toEqual([key, expect.stringMatching(name)])
    }
  })

  test('the shop is called by its name', () => {
    const name = DICTS[lang].find(([k]) => k === 'app.name')![1]
    expect(name).toBe(lang === 'zh' ? '拾盒' : 'Pickbox')
    expect(DICTS[lang].filter(([, v]) => /盲盒商店|Blind Box Shop/i.test(v))).toEqual([])
  })
})

test('the check itself: it catches each kind of configuration word, and passes plain words', () => {
  for (const bad of ['地图服务未配置', 'Maps are not set up', 'no AI service configured', 'PDF_ENGINE=off', 'named in OPERATOR_ACCOUNTS', '物流查询未开通']) expect(configWordIn(bad)).not.toBeNull()
  for (const fine of ['请手动填写所在地区和详细地址', 'Please type the region and street address', 'user_name', 'SHA-256']) expect(configWordIn(fine)).toBeNull()
})

test('the Settings tab names a variable for every service it lists', () => {
  expect(SERVICES.length).toBeGreaterThan(10)
  for (const s of SERVICES) expect(s.env.length).toBeGreaterThan(0)
  for (const s of SERVICES) expect(DICTS.zh.some(([k]) => k === `opSettings.svc.${s.key}`) && DICTS.en.some(([k]) => k === `opSettings.svc.${s.key}`)).toBe(true)
})
