/**
 * The HTTP exchange the map and parcel providers share: one request with a time limit, a JSON object
 * back. Whatever keeps an answer from arriving or being read (network, timeout, HTTP error, not JSON)
 * is a ProviderUnavailableError naming the provider and the path, never the key.
 */
import { createHash } from 'node:crypto'
import { ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'

export type Json = Record<string, unknown>

export const md5Hex = (text: string) => createHash('md5').update(text, 'utf8').digest('hex')

export async function fetchJson (provider: string, url: URL, init: RequestInit = {}, timeoutMs = PROVIDER_TIMEOUT_MS): Promise<Json> {
  const path = url.pathname
  let text: string
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
    text = await res.text()
    if (!res.ok) throw new Error(`HTTP ${res.status}`)
  } catch (err) {
    throw new ProviderUnavailableError(provider, `${path}: ${(err as Error).message}`, { cause: err })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ProviderUnavailableError(provider, `${path}: the answer is not JSON`)
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new ProviderUnavailableError(provider, `${path}: unexpected answer`)
  return json as Json
}

/** A provider's text field: '' for anything else (AMap writes [] for "none"). */
export const str = (v: unknown): string => typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : ''

/** A provider's number (some send numbers as strings); NaN when there is none. */
export function num (v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v === 'string' && v.trim() !== '') return Number(v)
  return Number.NaN
}

export const obj = (v: unknown): Json => v && typeof v === 'object' && !Array.isArray(v) ? v as Json : {}
export const arr = (v: unknown): unknown[] => Array.isArray(v) ? v : []

/** The address without its leading province, city and district: the detail line of an address form. */
export function detailOf (address: string, region: { province: string; city: string; district: string }): string {
  let rest = address.trim()
  for (const part of [region.province, region.city, region.district]) {
    if (part && rest.startsWith(part)) rest = rest.slice(part.length)
  }
  return rest.trim()
}
