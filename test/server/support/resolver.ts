/**
 * What host names resolve to in the server tests (no DNS here): names under .example, .test and example.com (.org, .net) are
 * public (example.com's addresses), but for a few that stand for the tricks a URL check must see
 * through; anything else does not resolve (ENOTFOUND, as DNS answers).
 */
import type { ResolveHost } from '../../../server/src/security/fetchableUrl'

export const PUBLIC_ADDRESSES = ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']

export const TRICK_HOSTS: Record<string, string[]> = {
  // a public-looking name whose address is the server's own loopback
  'loopback.example': ['127.0.0.1'],
  // one public address and one private: every address must be public
  'mixed.example': ['93.184.215.14', '10.0.0.7'],
  'metadata.example': ['169.254.169.254'],
  'cgnat.example': ['100.64.1.2'],
  'ula.example': ['fd12:3456::1'],
  'mapped.example': ['::ffff:192.168.1.1']
}

export const testResolveHost: ResolveHost = async host => {
  const trick = TRICK_HOSTS[host]
  if (trick) return trick
  if (/(^|\.)(example|test|example\.(com|org|net))$/.test(host) && host !== 'nowhere.example') return PUBLIC_ADDRESSES
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
}
