import type { WalletBalance } from '~types/shop'

export interface PaymentSplit { creditCents: number; cashCents: number; shortfallCents: number }

/** Credit first, then cash; what is left has to be paid directly (PRODUCT.md, Money). */
export function splitPayment (totalCents: number, balance: WalletBalance): PaymentSplit {
  const creditCents = Math.min(balance.creditCents, totalCents)
  const cashCents = Math.min(balance.cashCents, totalCents - creditCents)
  return { creditCents, cashCents, shortfallCents: totalCents - creditCents - cashCents }
}

/** Full years between a YYYY-MM-DD birth date and a day. */
export function ageOn (birthDate: string, today: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number)
  let age = today.getFullYear() - y
  if (today.getMonth() + 1 < m || (today.getMonth() + 1 === m && today.getDate() < d)) age -= 1
  return age
}
