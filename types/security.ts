/**
 * Account security (issue 10, PRODUCT.md "Accounts" and "Protecting shoppers"): the caller's sessions,
 * a password change that ends the other sessions, logging out everywhere, the shopper's own daily and
 * monthly spending limits (lowering at once, raising after 24 hours), the recorded birth date with the
 * guardian's consent, and the one reviewed correction of a mistyped birth date.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { Code, Email, Password, Phone } from './accounts'
import { GuardianView } from './shop'
import { CORRECTION_REASON_MAX, MONEY_MAX_CENTS } from './limits'
import { EmptyBody, Id, Nullable, Obj, PageFields, PageResult, StringEnum, Text, Timestamp, Cents } from './schema'

export { CORRECTION_REASON_MAX, LIMIT_RAISE_DELAY_MS } from './limits'

export const SessionView = Type.Object({
  id: Type.Integer(),
  /** The app the session came from (APP_TYPE header), e.g. h5 or weapp; null when unknown. */
  appType: Nullable(Type.String()),
  /** A short description of the browser or device, from its user agent. */
  device: Type.String(),
  /** The address with its last part hidden (203.0.113.x; 2001:db8:85a3:x). */
  maskedIp: Type.String(),
  createdAt: Timestamp,
  lastSeenAt: Timestamp,
  /** The session that asked. */
  current: Type.Boolean()
})
export type SessionView = Static<typeof SessionView>

export const SessionIdRequest = Obj({ sessionId: Id })
export type SessionIdRequest = Static<typeof SessionIdRequest>
export const EndedSessions = Type.Object({ ended: Type.Integer({ minimum: 0 }) })
export type EndedSessions = Static<typeof EndedSessions>

/** Where a re-authentication code goes: the account's own phone (SMS) or e-mail address (mail). */
export const ReauthVia = StringEnum(['phone', 'email'] as const)
export type ReauthVia = Static<typeof ReauthVia>
export const ReauthCodeRequest = Obj({ via: ReauthVia })
export type ReauthCodeRequest = Static<typeof ReauthCodeRequest>
/** Proof of ownership for an account without a password: the code sent by reauthCode. */
export const Reauth = Obj({ via: ReauthVia, code: Code })
export type Reauth = Static<typeof Reauth>

export const PasswordChangeRequest = Obj({
  /** Required when the account has a password. */
  currentPassword: Type.Optional(Text({ minLength: 1, maxLength: 100 })),
  /** Required when it has none: a code sent to the account's phone or address. */
  reauth: Type.Optional(Reauth),
  newPassword: Password
})
export type PasswordChangeRequest = Static<typeof PasswordChangeRequest>

export const LimitKind = StringEnum(['daily', 'monthly'] as const)
export type LimitKind = Static<typeof LimitKind>

export const LimitView = Type.Object({
  /** The limit in force, in cents; null: none. */
  cents: Nullable(Cents),
  /**
   * Spent this China day (daily) or China calendar month (monthly): boxes, prop cards and shipping
   * fees, paid with cash or credit (from the ledger).
   */
  spentCents: Cents,
  /** A raise or removal waiting to apply: its value (null: none) and when it applies. */
  pending: Nullable(Type.Object({ cents: Nullable(Cents), appliesAt: Timestamp }))
})
export type LimitView = Static<typeof LimitView>

export const LimitsView = Type.Object({ daily: LimitView, monthly: LimitView })
export type LimitsView = Static<typeof LimitsView>

/** A value for each limit to set: cents, or null for no limit; a limit left out stays as it is. */
export const LimitsRequest = Obj({
  daily: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MONEY_MAX_CENTS }))),
  monthly: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MONEY_MAX_CENTS })))
})
export type LimitsRequest = Static<typeof LimitsRequest>

export const CorrectionStatus = StringEnum(['pending', 'approved', 'rejected'] as const)
export type CorrectionStatus = Static<typeof CorrectionStatus>

export const CorrectionView = Type.Object({
  id: Type.Integer(),
  oldBirthDate: Type.String(),
  newBirthDate: Type.String(),
  reason: Type.String(),
  status: CorrectionStatus,
  reviewNote: Nullable(Type.String()),
  createdAt: Timestamp,
  reviewedAt: Nullable(Timestamp)
})
export type CorrectionView = Static<typeof CorrectionView>

export const CorrectionRequest = Obj({
  birthDate: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }),
  reason: Text({ minLength: 1, maxLength: CORRECTION_REASON_MAX })
})
export type CorrectionRequest = Static<typeof CorrectionRequest>

export const OperatorCorrectionView = Type.Object({
  ...CorrectionView.properties,
  userId: Type.Integer(),
  userLabel: Type.String()
})
export type OperatorCorrectionView = Static<typeof OperatorCorrectionView>
export const OperatorCorrectionListRequest = Obj({ ...PageFields, status: Type.Optional(CorrectionStatus) })
export type OperatorCorrectionListRequest = Static<typeof OperatorCorrectionListRequest>
export const OperatorCorrectionListResponse = PageResult(OperatorCorrectionView)
export type OperatorCorrectionListResponse = Static<typeof OperatorCorrectionListResponse>
export const CorrectionReviewRequest = Obj({
  correctionId: Id,
  approve: Type.Boolean(),
  note: Type.Optional(Text({ minLength: 1, maxLength: CORRECTION_REASON_MAX }))
})
export type CorrectionReviewRequest = Static<typeof CorrectionReviewRequest>

/** Which phone or address to bind: exactly one of them. */
export const BindCodeRequest = Obj({ phone: Type.Optional(Phone), email: Type.Optional(Email) })
export type BindCodeRequest = Static<typeof BindCodeRequest>
export const BindRequest = Obj({ phone: Type.Optional(Phone), email: Type.Optional(Email), code: Code })
export type BindRequest = Static<typeof BindRequest>
export const BindResult = Type.Object({ phone: Nullable(Type.String()), email: Nullable(Type.String()) })
export type BindResult = Static<typeof BindResult>

export const DeleteAccountRequest = Obj({
  /** The account's password (required when it has one). */
  password: Type.Optional(Text({ minLength: 1, maxLength: 100 })),
  /** For an account without a password: a code sent to its phone or address. */
  reauth: Type.Optional(Reauth),
  /** Agrees that credit and prizes still held lapse with the account. */
  forfeit: Type.Optional(Type.Boolean()),
  /**
   * true: only checks, nothing is deleted (answers ended: 0): the password or code (a code is not used
   * up), then what stands in the way, failing as the deletion would. The app checks before it asks
   * the owner to confirm.
   */
  check: Type.Optional(Type.Boolean())
})
export type DeleteAccountRequest = Static<typeof DeleteAccountRequest>
/** 422 on deleteAccount: what stands in the way, or what would lapse without `forfeit`. */
export const DeleteBlockedData = Type.Object({
  reason: StringEnum(['cash', 'withdrawal', 'parcel', 'payment', 'forfeit', 'no_reauth', 'last_operator'] as const),
  cashCents: Type.Optional(Cents),
  creditCents: Type.Optional(Cents),
  prizes: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Prop cards held (hint and X-ray). */
  cards: Type.Optional(Type.Integer({ minimum: 0 }))
})
export type DeleteBlockedData = Static<typeof DeleteBlockedData>

/** Everything the security page shows, in one call. */
export const SecurityOverview = Type.Object({
  hasPassword: Type.Boolean(),
  /** Masked: 138****0001, s***r@example.com; null when not bound. */
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  sessions: Type.Array(SessionView),
  limits: LimitsView,
  age: Type.Object({
    birthDate: Nullable(Type.String()),
    age: Nullable(Type.Integer()),
    minor: Type.Boolean(),
    guardianConsent: Type.Boolean(),
    /** Who consented and when, or the pending request (a minor from 8 to 17; null otherwise). */
    guardian: Nullable(GuardianView),
    /** A minor's default daily cap (the stricter of it and the own daily limit applies). */
    minorDailyCapCents: Nullable(Cents)
  }),
  correction: Nullable(CorrectionView)
})
export type SecurityOverview = Static<typeof SecurityOverview>

/** 422 on a purchase over a spending limit: which one, and what is left of it. */
export const SpendingLimitData = Type.Object({
  reason: Type.Literal('spending_limit'),
  kind: LimitKind,
  limitCents: Cents,
  leftCents: Cents
})
export type SpendingLimitData = Static<typeof SpendingLimitData>

const tag = 'security'
export const securityRoutes = {
  overview: route({ method: 'POST', url: '/api/security/overview', auth: 'user', tag, body: EmptyBody, data: SecurityOverview, summary: 'The security page: sessions, bindings, spending limits, age and the birth-date correction' }),
  passwordChange: route({
    method: 'POST', url: '/api/security/password', auth: 'user', tag, body: PasswordChangeRequest, data: EndedSessions,
    summary: 'Change (or set a first) password; every other session ends',
    description: 'An account with a password must give the current one (422 naming `currentPassword` when wrong; the login guess budget applies). One without a password proves it is the owner by `reauth`, a code from reauthCode (422 naming `code` when wrong or used; 422 no_reauth when no phone or e-mail is bound). The session that asks stays; `ended` counts the others.'
  }),
  reauthCode: route({
    method: 'POST', url: '/api/security/reauthCode', auth: 'user', tag, body: ReauthCodeRequest, data: Type.Null(),
    summary: 'Send a code to the account\'s own phone or e-mail, for an account without a password',
    description: 'For setting a first password or deleting the account. 422 when the account has a password (it is asked for instead) or has no phone (e-mail) bound. The code rules of the code logins apply.'
  }),
  bindCode: route({
    method: 'POST', url: '/api/security/bindCode', auth: 'user', tag, body: BindCodeRequest, data: Type.Null(),
    summary: 'Send a code to a phone (SMS) or address (mail) to bind it',
    description: 'Exactly one of phone and email. The code rules of the code logins apply (one a minute per target, ten a day, ten an hour per address); the answer is the same whether or not another account holds the target.'
  }),
  bind: route({
    method: 'POST', url: '/api/security/bind', auth: 'user', tag, body: BindRequest, data: BindResult,
    summary: 'Bind or replace the account\'s phone or e-mail with the code sent there',
    description: 'The code must be one bindCode sent for this account (a login code, or one asked for by another account, does not bind). A wrong or used code is a 422 naming `code` (not a 401: the session stays); a phone or address another account holds is a 409 (checked by the database, whatever races). Answers the masked bindings.'
  }),
  deleteAccount: route({
    method: 'POST', url: '/api/security/deleteAccount', auth: 'user', tag, body: DeleteAccountRequest, data: EndedSessions,
    summary: 'Delete the account (PIPL): personal data is erased, orders and the books are kept anonymised',
    description: 'Needs the password, or for an account without one a `reauth` code (422 no_reauth when it has neither a password nor a phone or e-mail). Refused (422, DeleteBlockedData) while cash is held (withdraw it first), a withdrawal is under way, a parcel is on its way or a WeChat Pay top-up could still be paid; credit and prizes in the warehouse lapse only with `forfeit: true`. Erases name, phone, e-mail, nickname, avatar, password, logins, addresses, codes, the birth date with the guardian\'s consent, limits and cards, and the names and addresses on past parcels; ends every session. Orders, purchases and the books stay, owned by the anonymous row. The phone, e-mail and user name can be used again.'
  }),
  sessionEnd: route({ method: 'POST', url: '/api/security/sessionEnd', auth: 'user', tag, body: SessionIdRequest, data: EndedSessions, summary: 'End one of the caller\'s sessions (another user\'s id is a 404)' }),
  sessionsEndOthers: route({ method: 'POST', url: '/api/security/sessionsEndOthers', auth: 'user', tag, body: EmptyBody, data: EndedSessions, summary: 'End every session but this one' }),
  logoutAll: route({ method: 'POST', url: '/api/security/logoutAll', auth: 'user', tag, body: EmptyBody, data: EndedSessions, summary: 'Log out everywhere, this session included' }),
  limits: route({
    method: 'POST', url: '/api/security/limits', auth: 'user', tag, body: LimitsRequest, data: LimitsView,
    summary: 'Set the daily and monthly spending limits',
    description: 'Lowering applies at once (and cancels a waiting raise); raising or removing applies 24 hours later and shows as pending. Spending counts boxes, prop cards and shipping fees (cash and credit); a purchase check, box purchase, card purchase or shipment over a limit is refused with 422 and SpendingLimitData before anything is charged. A minor\'s default daily cap applies as well: the stricter refuses.'
  }),
  correctionRequest: route({
    method: 'POST', url: '/api/security/birthDateCorrection', auth: 'user', tag, body: CorrectionRequest, data: CorrectionView,
    summary: 'Ask once for the recorded birth date to be corrected (an operator reviews it)',
    description: 'Needs a recorded birth date and a different one; one request per account, ever (409 after that).'
  }),
  operatorCorrections: route({ method: 'POST', url: '/api/operator/birthDateCorrections', auth: 'operator', tag, body: OperatorCorrectionListRequest, data: OperatorCorrectionListResponse, summary: 'Birth-date corrections to review, pending first (operators)' }),
  operatorCorrectionReview: route({
    method: 'POST', url: '/api/operator/birthDateReview', auth: 'operator', tag, body: CorrectionReviewRequest, data: OperatorCorrectionView,
    summary: 'Approve (the date is applied) or reject a birth-date correction (operators)',
    description: 'Only a pending one (409 otherwise); a rejection needs a note. Audited with the dates before and after.'
  })
}
