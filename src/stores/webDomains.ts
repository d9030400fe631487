/**
 * The shop's business domains as the app knows them (issue 48 item 4): filled from the public settings
 * (GET /system/setting/login, `webDomains`, by stores/capabilities.ts), read by the web view page and by
 * utils/navigation's jump. A module of its own, importing nothing of the app, so that navigation can
 * read it without an import circle through the services.
 */
import { webPageAllowed, webTarget } from '~types/webHosts'

let known: readonly string[] | null = null

/** The list from the settings (null: not had yet, or forgotten). */
export function setWebDomains (domains: readonly string[] | null): void {
  known = domains
}

/** Whether the list has arrived. */
export const webDomainsKnown = (): boolean => known !== null

/** The shop's own origin: on H5 the page's own; the mini-program has none (its web-view opens business domains only). */
function ownOrigin (): string | null {
  if (process.env.TARO_ENV !== 'h5' || typeof location === 'undefined') return null
  return location.origin
}

/** Whether the web view may show this page: the shop's own origin, or https on a listed domain (types/webHosts.ts). */
export function webViewAllows (url: string): boolean {
  return webPageAllowed(url, known ?? [], ownOrigin())
}

/** The host the shopper is shown beside the page ('shop.example.com'), or '' when the link is not a web page. */
export const webHostOf = (url: string): string => webTarget(url)?.host ?? ''
