/**
 * The Data tab's columns as an operator reads them (issue 48): each column of the table API
 * (types/data.ts) named in the user's language (dataTab.column.*), money in yuan (¥, from `*_cents`),
 * odds in % (from `*_ppm`), times as local times, statuses and rarities as words (dataTab.value.*),
 * yes/no as words. A column without a label yet reads as words, never as its wire name.
 */
import { localeStore, t } from '@/stores/locale'
import { formatCents, formatPpm, formatTime } from '@/utils/format'

export function columnLabel (column: string): string {
  const key = `dataTab.column.${column}`
  if (localeStore.has(key)) return t(key)
  const words = column.replace(/_(cents|ppm)$/, '').replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function cellText (column: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'number' && /_cents$/.test(column)) return formatCents(value)
  if (typeof value === 'number' && /_ppm$/.test(column)) return formatPpm(value)
  if (typeof value === 'boolean') return t(value ? 'dataTab.yes' : 'dataTab.no')
  if (typeof value === 'string' && /_at$/.test(column)) return formatTime(value)
  if (typeof value === 'string' && (column === 'status' || column === 'rarity')) {
    const key = `dataTab.value.${value}`
    return localeStore.has(key) ? t(key) : value
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}
