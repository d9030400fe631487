/**
 * What is wrong with the business-domains form (one host per line), before it is sent: the rule of
 * types/webHosts.ts. A Unicode name is left to the server, which converts it (url.domainToASCII).
 * Kept out of the component module so that React Fast Refresh can update that module in place.
 */
import { WEB_DOMAIN_LIMITS, webDomainOf } from '~types/webHosts'
import { t } from '@/stores/locale'

export const linesOf = (text: string): string[] => text.split('\n').map(l => l.trim()).filter(Boolean)

/** The first problem of the typed list, in the operator's language, or null. */
export function webDomainsProblem (text: string): string | null {
  const lines = linesOf(text)
  if (lines.length > WEB_DOMAIN_LIMITS.max) return t('opWebDomains.tooMany', { max: WEB_DOMAIN_LIMITS.max })
  for (const [i, entry] of lines.entries()) {
    // eslint-disable-next-line no-control-regex
    const unicode = /[^\x00-\x7f]/.test(entry)
    if (entry.length > WEB_DOMAIN_LIMITS.entryMax || (!unicode && !webDomainOf(entry))) {
      return t('opWebDomains.invalid', { line: i + 1, entry: entry.slice(0, 60) })
    }
  }
  return null
}
