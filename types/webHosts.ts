/**
 * The shop's business domains (业务域名, issue 48 item 4): the only sites the web view page
 * (pages/web_view) may show, and the only ones a mini-program link (POST /get_mp_url) may lead to, besides
 * the shop's own origin. Pure code shared by the app and the server (no schema library here).
 *
 * Matching is exact and conservative, the same on every runtime (the mini-program's `URL` is Taro's
 * polyfill, which neither lowercases nor converts IDN hosts):
 *  - only `https://` pages (the shop's own origin may be `http://` in development);
 *  - the authority is a plain host with an optional port: letters, digits, `-` and `.` (or an IPv6
 *    literal); userinfo (`user@`), `%`, a backslash, spaces or any other character refuse the link;
 *  - hosts compare lowercased, whole: `evil-shop.com` and `shop.com.evil.com` are not `shop.com`, and a
 *    trailing dot is not dropped; the default port is dropped (`shop.com:443` is `shop.com`), any other
 *    port must be listed;
 *  - an international name is listed and linked in its ASCII form (`xn--...`); the operator's Unicode
 *    entry is converted by the server (url.domainToASCII), a link with a Unicode host is refused.
 */

export const WEB_DOMAIN_LIMITS = {
  /** entries in the list */
  max: 30,
  /** characters of one entry as typed (a host is at most 253, plus a port and an https:// prefix) */
  entryMax: 300
} as const

export interface WebTarget {
  /** 'https' or 'http' */
  scheme: string
  /** lowercased host with a non-default port: 'shop.com', 'shop.com:8443', '[::1]:8080' */
  host: string
}

const LABELS = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/
const IPV6 = /^\[[0-9a-f:.]+\]$/
const DEFAULT_PORT: Record<string, string> = { https: '443', http: '80' }

/** 'Shop.COM:0443' (for https) -> 'shop.com'; null when the authority is not a plain host[:port]. */
function hostOf (scheme: string, authority: string): string | null {
  const m = /^([^:]+|\[[^\]]*\])(?::(\d{1,5}))?$/.exec(authority)
  if (!m) return null
  const host = m[1].toLowerCase()
  if (!LABELS.test(host) && !IPV6.test(host)) return null
  if (m[2] === undefined) return host
  const port = String(Number(m[2]))
  if (Number(port) < 1 || Number(port) > 65535) return null
  return port === DEFAULT_PORT[scheme] ? host : `${host}:${port}`
}

/** The scheme and host a link opens, or null when it is not a plain http(s) link the rules above accept. */
export function webTarget (link: string): WebTarget | null {
  if (typeof link !== 'string' || link.length > 4096 || /[\s\\]/.test(link)) return null
  const m = /^(https?):\/\/([^/?#]*)(?:[/?#]|$)/i.exec(link)
  if (!m) return null
  const scheme = m[1].toLowerCase()
  const host = hostOf(scheme, m[2])
  return host ? { scheme, host } : null
}

/**
 * An operator's entry as it is stored: 'Shop.com', 'https://shop.com/', 'shop.com:8443' -> 'shop.com',
 * 'shop.com:8443'. null when it is not a plain host (a path, userinfo, http://, a wildcard, Unicode:
 * the server converts Unicode first, see normalizeWebDomainEntry in server/src/domain/webDomains.ts).
 */
export function webDomainOf (entry: string): string | null {
  const text = entry.trim().replace(/^https:\/\//i, '').replace(/\/$/, '')
  if (!text || /^[a-z][a-z\d+.-]*:\/\//i.test(text)) return null
  return hostOf('https', text)
}

/**
 * Whether the web view may show a link: an https page on a listed domain, or a page of the shop's own
 * origin (H5: the page's own `location.origin`; scheme, host and port all equal).
 */
export function webPageAllowed (link: string, domains: readonly string[], ownOrigin?: string | null): boolean {
  const target = webTarget(link)
  if (!target) return false
  if (ownOrigin) {
    const own = webTarget(ownOrigin)
    if (own && own.scheme === target.scheme && own.host === target.host) return true
  }
  return target.scheme === 'https' && domains.includes(target.host)
}
