/** The bundled art (3D emoji pictures, served by http/media.ts): its URL path and the names it has. */
export const ART_PREFIX = '/media/art/'
export const ART_NAME = /^[0-9a-f]+(-[0-9a-f]+)*\.webp$/

/** The URL path of an art file (e.g. artUrl('1f381') -> /media/art/1f381.webp). */
export const artUrl = (code: string) => `${ART_PREFIX}${code}.webp`
