import { SHOP_LIMITS } from '~types/limits'
import type { AgeGateData, AgeStatus } from '~types/shop'

/** The reasons of the server's age gate (AgeGateData): a page that gets one shows this gate. */
export const AGE_GATE_REASONS: ReadonlyArray<AgeGateData['reason']> = ['age_required', 'too_young', 'guardian_consent']

/** Where the shopper stands at the age gate: clear to buy, too young, or a minor waiting for consent. */
export function ageGateState (age: AgeStatus): { cleared: boolean; tooYoung: boolean; needsConsent: boolean } {
  const tooYoung = age.verified && (age.age ?? 0) < SHOP_LIMITS.minPurchaseAge
  const needsConsent = age.verified && age.minor && !tooYoung && !age.guardianConsent
  return { cleared: age.verified && !tooYoung && !needsConsent, tooYoung, needsConsent }
}
