import type { WalletBalance } from '~types/shop'
import { t } from '@/stores/locale'
import { formatCents } from '@/utils/format'
import { topUpAmount } from './flow'

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

/**
 * What the pay button says beside the total when the wallet falls short: what the balance gives and what
 * the payment channel charges (a top-up of the shortfall, at least the smallest top-up; any more than
 * the shortfall stays in the balance).
 */
export function channelSplit (totalCents: number, shortfallCents: number, channel: string): string {
  const charged = topUpAmount(shortfallCents)
  const text = t('purchase.payDirectSplit', { wallet: formatCents(totalCents - shortfallCents), channel, charged: formatCents(charged) })
  return charged > shortfallCents ? `${text}${t('purchase.payDirectExtra', { extra: formatCents(charged - shortfallCents) })}` : text
}
