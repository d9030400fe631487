import { getConfig } from '@/config'

/**
 * Where images the server names live. A path like /media/art/x.webp is served by the API server's
 * origin: the page's own origin on H5 (relative API base), the API base's origin in the mini-program.
 */
export function mediaUrl (path: string | null | undefined): string {
  if (!path) return ''
  if (/^https?:\/\//i.test(path)) return path
  const m = /^(https?:\/\/[^/]+)/i.exec(getConfig().apiBase)
  return m ? `${m[1]}${path}` : path
}
