/**
 * The contact form (profile page): what the shopper types, checked as the server checks it
 * (types/complaints.ts ComplaintCreateRequest: a topic, a message of COMPLAINT_LIMITS.textMin to
 * textMax characters once trimmed, without control characters but line breaks; an optional e-mail
 * address; an optional related number of letters, digits and -).
 */
import { COMPLAINT_LIMITS, LOGIN_LIMITS, MULTI_LINE_PATTERN } from '~types/limits'
import type { ComplaintCreateRequest, ComplaintTopic } from '~types/complaints'
import type { MyOrder } from '~types/orderHistory'
import type { LoginSettings } from '~types/accounts'
import { t } from '@/stores/locale'
import { EMAIL_RE } from '@/utils/validation'

export interface ComplaintForm {
  topic: ComplaintTopic | null
  text: string
  contact: string
  orderNo: string
  /** One of the shopper's own orders, picked from the list (it takes the place of a typed number). */
  related?: Pick<MyOrder, 'kind' | 'id' | 'number'> | null
}

export type ComplaintField = 'topic' | 'text' | 'contact' | 'orderNo'
export type ComplaintErrors = Partial<Record<ComplaintField, string>>

export const emptyComplaintForm = (): ComplaintForm => ({ topic: null, text: '', contact: '', orderNo: '' })

const MULTI_LINE = new RegExp(MULTI_LINE_PATTERN)
const ORDER_NO = new RegExp(COMPLAINT_LIMITS.orderNoPattern)

/** Every problem of the form, by field, in the user's language (empty: it may be sent). */
export function validateComplaint (f: ComplaintForm): ComplaintErrors {
  const errors: ComplaintErrors = {}
  if (!f.topic) errors.topic = t('complaints.topicRequired')
  const text = f.text.trim()
  if (!MULTI_LINE.test(text)) errors.text = t('complaints.textInvalid')
  else if (text.length < COMPLAINT_LIMITS.textMin) errors.text = t('complaints.textShort', { min: COMPLAINT_LIMITS.textMin })
  else if (text.length > COMPLAINT_LIMITS.textMax) errors.text = t('complaints.textLong', { max: COMPLAINT_LIMITS.textMax })
  const contact = f.contact.trim()
  if (contact && (contact.length > LOGIN_LIMITS.emailMax || !EMAIL_RE.test(contact))) errors.contact = t('complaints.contactInvalid')
  const orderNo = f.orderNo.trim()
  if (!f.related && orderNo && !ORDER_NO.test(orderNo)) errors.orderNo = t('complaints.orderNoInvalid')
  return errors
}

/** The request of a valid form (`idempotencyKey`: one per complaint, kept for a retry). */
export function complaintRequest (f: ComplaintForm, idempotencyKey: string): ComplaintCreateRequest {
  const contact = f.contact.trim()
  const orderNo = f.orderNo.trim()
  return {
    topic: f.topic ?? 'other',
    text: f.text.trim(),
    ...(contact ? { contact } : {}),
    ...(f.related ? { related: { kind: f.related.kind, id: f.related.id } } : orderNo ? { orderNo } : {}),
    idempotencyKey
  }
}

/**
 * The contact field's hint (issue 48): it promises a mailed reply only when the shop's mail reaches people;
 * with no mailer, development's log stand-in, or settings not known yet, it says where the reply appears.
 */
export function contactHint (settings: LoginSettings | null): string {
  const mailReaches = !!settings?.email && !settings.devLogOnly?.includes('email')
  return t(mailReaches ? 'complaints.contactPlaceholder' : 'complaints.contactPlaceholderInApp')
}
