/**
 * Which URLs a caller may hand to a provider that fetches them (the AI's pictures by `remote_url`):
 * a provider, self-hosted perhaps beside this server, must not be turned into a probe of its own
 * network. Accepted (docs/security.md, "URLs a provider fetches"):
 *  - a public https URL: no user name or password, the default port, a host name (or a plain dotted
 *    IPv4 / bracketed IPv6 literal) whose every address is a public unicast address;
 *  - outside production only, the shop's own media on the shop's own origin (what the app sends in
 *    development: http://127.0.0.1:10086/media/u/<sha-256>.png), so a local provider can fetch it.
 * Everything else is refused with the reason, which the route reports as a 400 on its field.
 * The provider resolves the name again when it fetches (a name that changes its answer in between
 * is the residual risk the docs name); this check is what the shop can do without fetching itself.
 */
import { isIP } from 'node:net'
import { lookup } from 'node:dns/promises'

export type UrlRefusal = 'https' | 'credentials' | 'port' | 'address' | 'unresolvable'

/** Every address a host name resolves to (IPv4 and IPv6). */
export type ResolveHost = (host: string) => Promise<string[]>

/** How long a name may take to resolve before it counts as unresolvable. */
export const RESOLVE_TIMEOUT_MS = 3_000

export const resolveWithDns: ResolveHost = async host => {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS) })
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout])
    return found.map(a => a.address)
  } finally {
    clearTimeout(timer)
  }
}

/** The shop's media as its server serves it: an upload (/media/u/<sha-256>.<ext>) or a demo picture (/media/art/...). */
export const OWN_MEDIA_PATH = /^\/media\/(?:u\/[0-9a-f]{64}\.(?:png|jpg|webp|gif)|art\/[0-9a-z-]+\.(?:png|jpg|webp|gif|svg))$/

// ---- addresses ----------------------------------------------------------------------------------

const v4Number = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0)
const v4Block = (base: string, bits: number) => ({ start: v4Number(base), size: 2 ** (32 - bits) })

/** IPv4 ranges that are not public unicast (RFC 6890 and its updates). */
const V4_NOT_PUBLIC = [
  v4Block('0.0.0.0', 8), // "this network", incl. the unspecified 0.0.0.0
  v4Block('10.0.0.0', 8), // private
  v4Block('100.64.0.0', 10), // shared address space (CGNAT)
  v4Block('127.0.0.0', 8), // loopback
  v4Block('169.254.0.0', 16), // link-local (cloud metadata at 169.254.169.254)
  v4Block('172.16.0.0', 12), // private
  v4Block('192.0.0.0', 24), // IETF protocol assignments
  v4Block('192.0.2.0', 24), // documentation
  v4Block('192.88.99.0', 24), // 6to4 relay anycast
  v4Block('192.168.0.0', 16), // private
  v4Block('198.18.0.0', 15), // benchmarking
  v4Block('198.51.100.0', 24), // documentation
  v4Block('203.0.113.0', 24), // documentation
  v4Block('224.0.0.0', 4), // multicast
  v4Block('240.0.0.0', 4) // reserved, incl. broadcast 255.255.255.255
]

function publicV4 (ip: string): boolean {
  const n = v4Number(ip)
  return !V4_NOT_PUBLIC.some(b => n >= b.start && n < b.start + b.size)
}

/** An IPv6 address as its eight 16-bit groups (an embedded dotted IPv4 tail becomes two groups). */
function v6Groups (ip: string): number[] | null {
  let text = ip.toLowerCase().split('%')[0]
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1]
  if (tail) {
    const n = v4Number(tail)
    text = text.slice(0, -tail.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const part = (s: string) => (s ? s.split(':').map(h => parseInt(h, 16)) : [])
  const head = part(halves[0])
  const rest = halves.length === 2 ? part(halves[1]) : []
  const groups = halves.length === 2 ? [...head, ...Array(8 - head.length - rest.length).fill(0), ...rest] : head
  return groups.length === 8 && groups.every(g => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`

function publicV6 (ip: string): boolean {
  const g = v6Groups(ip)
  if (!g) return false
  const zeros = (from: number, to: number) => g.slice(from, to).every(x => x === 0)
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address decides
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return !zeros(6, 8) && publicV4(v4Of(g[6], g[7]))
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return publicV4(v4Of(g[6], g[7]))
  // 6to4 (2002:a.b.c.d::/48): the embedded IPv4 address decides
  if (g[0] === 0x2002) return publicV4(v4Of(g[1], g[2]))
  // only global unicast (2000::/3) is public; within it Teredo (2001::/32), ORCHID and documentation are not
  if ((g[0] & 0xe000) !== 0x2000) return false // ::, ::1, fc00::/7 unique-local, fe80::/10 link-local, ff00::/8 multicast ...
  if (g[0] === 0x2001 && (g[1] === 0 || g[1] === 0xdb8 || (g[1] >= 0x10 && g[1] <= 0x2f))) return false
  return true
}

/** A public unicast address (IPv4 or IPv6); anything else, or not an address, is false. */
export function isPublicAddress (ip: string): boolean {
  const kind = isIP(ip)
  if (kind === 4) return publicV4(ip)
  if (kind === 6) return publicV6(ip)
  return false
}

// ---- URLs ---------------------------------------------------------------------------------------

/** The host exactly as the caller wrote it (WHATWG URL turns 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1). */
const rawHost = (text: string) => /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#\\]*@)?(\[[^\]]*\]|[^:/?#\\]*)/i.exec(text)?.[1] ?? ''

export interface FetchableCheck {
  /** The shop's own origin as this request reached it (e.g. http://127.0.0.1:10086). */
  ownOrigin: string
  production: boolean
  resolve: ResolveHost
}

const hostOf = (origin: string) => { try { return new URL(origin).host } catch { return null } }

/** null when a provider may fetch the URL; else why not. */
export async function refuseUnfetchable (text: string, check: FetchableCheck): Promise<UrlRefusal | null> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'https'
  }
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*@/i.test(text)) return 'credentials'
  // the host as the request named it (a proxy in front may end TLS, so the scheme is not compared)
  if (!check.production && url.host === hostOf(check.ownOrigin) && OWN_MEDIA_PATH.test(url.pathname) && !url.search) return null
  if (url.protocol !== 'https:') return 'https'
  if (url.port !== '') return 'port'
  const host = url.hostname
  if (host.startsWith('[')) return publicV6(host.slice(1, -1)) ? null : 'address'
  if (isIP(host) === 4) {
    // only the plain dotted form: decimal, octal and hex spellings are refused whatever they mean
    if (rawHost(text).toLowerCase() !== host) return 'address'
    return publicV4(host) ? null : 'address'
  }
  const name = host.replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost') || !name.includes('.')) return 'address'
  let addresses: string[]
  try {
    addresses = await check.resolve(name)
  } catch {
    return 'unresolvable'
  }
  if (!addresses.length) return 'unresolvable'
  return addresses.every(isPublicAddress) ? null : 'address'
}
