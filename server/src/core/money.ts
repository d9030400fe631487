/** Money is kept in cents (integers); these write it for people. */

/** 1234 -> "12.34": the amount in yuan with two decimals, as messages put it after ¥. */
export const yuan = (cents: number) => (cents / 100).toFixed(2)

/** 500000 -> "¥5,000.00", as the app writes money (src/utils/format.ts formatCents). */
export function formatYuan (cents: number): string {
  const abs = Math.abs(Math.trunc(cents))
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${cents < 0 ? '-' : ''}¥${whole}.${String(abs % 100).padStart(2, '0')}`
}
