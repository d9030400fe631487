/**
 * Issue 48 in the app: the address form refuses a recipient with no letter (the server's rule,
 * ADDRESS_NAME_LETTER) in zh and en and takes a picked region for the typed one; phones show masked;
 * the contact form sends a picked order by kind and id.
 */
import { localeStore } from '@/stores/locale'
import { addressProblems, type Draft } from '@/components/ShipSheet/address'
import { maskPhone } from '@/utils/format'
import { complaintRequest } from '@/pagesA/profile/complaintForm'

const draft: Draft = { name: '李雷', phone: '13800138000', region: '', area: { province: '广东省', city: '深圳市', district: '南山区' }, detail: '科技园 1 号', isDefault: false }

test('a recipient needs a letter or Chinese character, in both languages', () => {
  localeStore.setLocale('zh')
  expect(addressProblems({ ...draft, name: '😀😀' })).toEqual({ name: '收件人姓名至少要有一个汉字或字母' })
  expect(addressProblems({ ...draft, name: '123 !' }).name).toBe('收件人姓名至少要有一个汉字或字母')
  localeStore.setLocale('en')
  expect(addressProblems({ ...draft, name: '😀😀' })).toEqual({ name: 'The recipient\'s name needs at least one letter or Chinese character' })
  for (const name of ['李', 'Ann 😀', 'Zoë', 'Ли']) expect(addressProblems({ ...draft, name })).toEqual({})
})

test('the region: picked parts, or an old address\'s typed text; neither is missing', () => {
  localeStore.setLocale('zh')
  expect(addressProblems(draft)).toEqual({})
  expect(addressProblems({ ...draft, area: null, region: '上海市 浦东新区' })).toEqual({})
  expect(addressProblems({ ...draft, area: null, region: ' ' })).toEqual({ region: '请选择所在地区（省 市 区）' })
})

test('phones are masked to the first three and last four digits; other text is left as it is', () => {
  expect(maskPhone('13800138000')).toBe('138****8000')
  expect(maskPhone('+86 138 0013 8000')).toBe('138****8000')
  expect(maskPhone('139****0000')).toBe('139****0000')
  expect(maskPhone(null)).toBe('')
  expect(maskPhone('')).toBe('')
})

test('a picked related order goes by kind and id, in place of a typed number', () => {
  const form = { topic: 'shipping' as const, text: '自提单一直没有到店，请帮忙看看', contact: '', orderNo: 'SF123456', related: { kind: 'shipment' as const, id: 3, number: '到店自提 S-3' } }
  expect(complaintRequest(form, 'key-1234567890abcdef')).toEqual({ topic: 'shipping', text: form.text, related: { kind: 'shipment', id: 3 }, idempotencyKey: 'key-1234567890abcdef' })
})
