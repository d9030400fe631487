/**
 * The contact form checks what the server checks: for each form below, the form finds no problem
 * exactly when the request it builds passes the contract's schema (types/complaints.ts
 * ComplaintCreateRequest, as Ajv checks it on the server); each problem is named in the user's language.
 */
import { TextDecoder, TextEncoder } from 'node:util'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import type { TSchema } from 'typebox'
import { COMPLAINT_LIMITS } from '../../types/limits'
import { localeStore } from '@/stores/locale'
import { complaintRequest, emptyComplaintForm, validateComplaint, type ComplaintForm } from '@/pagesA/profile/complaintForm'

// TypeBox needs TextEncoder, which jsdom does not have: given before the contract's module is loaded
Object.assign(globalThis, { TextEncoder, TextDecoder })
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ComplaintCreateRequest } = require('../../types/complaints') as { ComplaintCreateRequest: TSchema }
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)
const schemaAccepts = ajv.compile(ComplaintCreateRequest as object)

const KEY = 'abcdefgh12345678'
const valid: ComplaintForm = { topic: 'shipping', text: '包裹十天没有物流更新了', contact: '', orderNo: '' }

const FORMS: Array<[string, ComplaintForm]> = [
  ['valid', valid],
  ['with contact and number', { ...valid, contact: 'li@example.com', orderNo: 'SF1234567890123' }],
  ['padded text, contact and number', { ...valid, text: `  ${valid.text}\n\n`, contact: ' li@example.com ', orderNo: ' BB-2026 ' }],
  ['multi-line text', { ...valid, text: 'line one here\nline two\r\n\tindented' }],
  ['no topic', { ...valid, topic: null }],
  ['empty text', { ...valid, text: '' }],
  ['text one short', { ...valid, text: 'x'.repeat(COMPLAINT_LIMITS.textMin - 1) }],
  ['text just long enough', { ...valid, text: 'x'.repeat(COMPLAINT_LIMITS.textMin) }],
  ['short once trimmed', { ...valid, text: `   ${'x'.repeat(COMPLAINT_LIMITS.textMin - 1)}      ` }],
  ['text at the maximum', { ...valid, text: '字'.repeat(COMPLAINT_LIMITS.textMax) }],
  ['text one over', { ...valid, text: '字'.repeat(COMPLAINT_LIMITS.textMax + 1) }],
  ['a control character', { ...valid, text: `${valid.text}\u0007` }],
  ['a bad address', { ...valid, contact: 'li@' }],
  ['an address without a domain dot', { ...valid, contact: 'li@example' }],
  ['an address with a space', { ...valid, contact: 'li lei@example.com' }],
  ['a number too short', { ...valid, orderNo: 'ab1' }],
  ['a number with a space', { ...valid, orderNo: 'SF 123456' }],
  ['a number too long', { ...valid, orderNo: 'A'.repeat(41) }],
  ['a number of 40', { ...valid, orderNo: 'A'.repeat(40) }]
]

describe('the contact form', () => {
  beforeAll(() => localeStore.setLocale('en'))

  test.each(FORMS)('%s: the form accepts it exactly when the server would', (_name, form) => {
    const problems = validateComplaint(form)
    const body = complaintRequest(form, KEY)
    expect(Object.keys(problems).length === 0).toBe(!!form.topic && schemaAccepts(body))
  })

  test('each problem named by field, in the user\'s language; the request carries the trimmed values only', () => {
    expect(validateComplaint(emptyComplaintForm())).toEqual({ topic: 'Choose a topic', text: `Write at least ${COMPLAINT_LIMITS.textMin} characters` })
    expect(validateComplaint({ ...valid, contact: 'x', orderNo: 'a b' })).toEqual({ contact: 'Not a valid e-mail address', orderNo: 'Letters, digits and - only, 4 to 40 of them' })
    localeStore.setLocale('zh')
    expect(validateComplaint({ ...valid, text: 'x'.repeat(COMPLAINT_LIMITS.textMax + 1) })).toEqual({ text: `留言最多 ${COMPLAINT_LIMITS.textMax} 个字` })
    localeStore.setLocale('en')
    expect(complaintRequest({ ...valid, text: ' a b c d e f g ', contact: ' ', orderNo: '' }, KEY)).toEqual({ topic: 'shipping', text: 'a b c d e f g', idempotencyKey: KEY })
    expect(complaintRequest({ ...valid, contact: ' li@example.com', orderNo: 'BB-1 ' }, KEY)).toEqual({ topic: 'shipping', text: valid.text, contact: 'li@example.com', orderNo: 'BB-1', idempotencyKey: KEY })
  })
})
