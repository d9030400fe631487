/**
 * The age gate: the recorded birth date, a minor's guardian consent.
 */
import { Type, type Static } from 'typebox'
import { Code, Phone } from '../accounts'
import { Cents, Nullable, Obj, StringEnum, Timestamp } from '../schema'

// ---- age gate -------------------------------------------------------------------------------------

export const AgeVerifyRequest = Obj({
  birthDate: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }),
  /**
   * Ignored, accepted so that app versions still in use are not refused: a minor cannot consent for
   * their guardian. The guardian consents with the code guardianCode sends to their phone.
   */
  guardianConsent: Type.Optional(Type.Boolean({ deprecated: true, description: 'Ignored: the guardian consents through guardianCode and guardianConfirm' }))
})
export type AgeVerifyRequest = Static<typeof AgeVerifyRequest>

/**
 * A minor's guardian consent, for minors who may buy (8 to 17); null for everyone else.
 *   none     no code sent yet (or a request left unconfirmed for a week, whose number was then forgotten)
 *   pending  a code went to `phone`; the guardian tells it to the minor, who enters it (guardianConfirm)
 *   given    the guardian at `phone` consented at `consentedAt`
 */
export const GuardianState = StringEnum(['none', 'pending', 'given'] as const)
export type GuardianState = Static<typeof GuardianState>
export const GuardianView = Type.Object({
  state: GuardianState,
  /** The guardian's number, masked (138****0000): where the code went, or who consented. */
  phone: Nullable(Type.String()),
  requestedAt: Nullable(Timestamp),
  consentedAt: Nullable(Timestamp),
  /** Seconds until a code can be sent to the same number again (0: now). */
  resendInSeconds: Type.Integer({ minimum: 0 }),
  /** A code can be sent at all (false when the shop cannot send SMS now: the app says to ask the shop). */
  canRequest: Type.Boolean()
})
export type GuardianView = Static<typeof GuardianView>

export const AgeStatus = Type.Object({
  /** A birth date is recorded (it cannot be changed afterwards). */
  verified: Type.Boolean(),
  /** null until verified */
  birthDate: Nullable(Type.String()),
  age: Nullable(Type.Integer()),
  minor: Type.Boolean(),
  /** A minor's guardian has consented, by the code sent to the guardian's phone (always false for adults and the unverified). */
  guardianConsent: Type.Boolean(),
  /** Default daily spending cap of a minor; null for adults. */
  dailyCapCents: Nullable(Cents),
  /** The guardian's consent of a minor from 8 to 17; null otherwise. */
  guardian: Nullable(GuardianView)
})
export type AgeStatus = Static<typeof AgeStatus>

/** Send the code to the guardian's phone; without `phone`, again to the number of the pending request. */
export const GuardianCodeRequest = Obj({ phone: Type.Optional(Phone) })
export type GuardianCodeRequest = Static<typeof GuardianCodeRequest>
/** The code the guardian received. */
export const GuardianConfirmRequest = Obj({ code: Code })
export type GuardianConfirmRequest = Static<typeof GuardianConfirmRequest>
