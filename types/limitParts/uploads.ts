/**
 * Uploads and the media they become: sizes, image types and pixels, served widths, URLs.
 * Plain constants, no schema code (types/limits.ts re-exports them all).
 */
export const UPLOAD_MAX_MB = 2
export const UPLOAD_MAX_BYTES = UPLOAD_MAX_MB * 1024 * 1024
/**
 * The most pixels (width x height) an image may have once decoded: 4096 x 4096, 64 MB of RGBA. A file
 * under UPLOAD_MAX_MB can claim far more (a 150 KB PNG of 30000 x 30000 is 3.6 GB decoded), and every
 * phone that shows it would decode it. Read from the file's header before anything decodes it: uploads,
 * OCR, the phone's QR scan, and pictures inside PDFs.
 */
export const IMAGE_MAX_PIXELS = 4096 * 4096
export const UPLOAD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
/** The form field of an upload (Taro.uploadFile's `name`, the H5 form's field). */
export const UPLOAD_FIELD = 'file'
/**
 * The widths (in device pixels) an image is served at besides its own: /media/...?w=N answers the image
 * scaled down to the smallest of these at least N wide (never up: an image narrower than that comes
 * as it is), so a phone fetches what its screen shows and no more, and there are few copies to cache.
 */
export const MEDIA_WIDTHS = [64, 96, 128, 160, 240, 320, 480, 640, 960, 1280] as const
/** Where uploaded images are served: /media/u/<sha-256>.<ext>. */
export const UPLOAD_URL_PATTERN = '^/media/(u|art)/[0-9a-f-]+\\.(png|jpg|webp|gif)$'
