/** What an uploaded file really is, read from its header (types/imageHeader.ts, shared with the app). */
export { sniffImage, withinPixelLimit, type ImageInfo } from '../../../../types/imageHeader'
