/**
 * Pictures (types/vision.ts), with the spec's payload rules: OCR takes the image itself as a file
 * (the mini-program's chooseImage + uploadFile, a browser's file input), as does a shopper's
 * screenshot; pic2word sends the picture's absolute URL (a path of ours gets this page's origin, since
 * the AI fetches it); word2pic sends the text trimmed, never empty, cut to VISION_LIMITS.promptMax.
 */
import type { HelpersAvailable, OcrResult, Pic2WordRequest, visionRoutes, Word2PicRequest } from '~types/vision'
import type { UploadResult } from '~types/editor'
import { VISION_LIMITS } from '~types/limits'
import { t } from '@/stores/locale'
import { imageFile } from './ai'
import { postRoute } from './request'
import { chooseAndUpload, uploadFileObject } from './upload'

type R = typeof visionRoutes

export const OCR_URL = '/api/ocr'
export const SCREENSHOT_URL = '/api/upload/image'

/** A word2pic request that did not leave: the text is empty. */
export class PromptError extends Error {
  constructor () { super(t('vision.promptEmpty')); this.name = 'PromptError' }
}

/** The body of a word2pic call: the text trimmed and cut to the limit (an empty one is refused here). */
export function word2picBody (text: string, size?: Word2PicRequest['size']): Word2PicRequest {
  const trimmed = text.trim()
  if (!trimmed) throw new PromptError()
  // cut by characters, not UTF-16 halves
  const cut = Array.from(trimmed).slice(0, VISION_LIMITS.promptMax).join('').trim()
  return { text: cut, ...(size ? { size } : {}) }
}

/** The body of a pic2word call: the picture's absolute URL. */
export function pic2wordBody (url: string, lang?: 'zh' | 'en', origin?: string): Pic2WordRequest {
  return { file: imageFile(url, origin).url, ...(lang ? { lang } : {}) }
}

export const visionApi = {
  helpers: () => postRoute<R['helpers']>('/api/helpers', {}) as Promise<HelpersAvailable>,
  /** Mini-program: pick or take a photo and read its text. */
  ocrPick: () => chooseAndUpload<OcrResult>(OCR_URL),
  /** H5: read the text of the picked file. */
  ocrFile: (file: File | null | undefined) => uploadFileObject<OcrResult>(file, OCR_URL),
  /** Mini-program: pick or take a screenshot and upload it. */
  screenshotPick: () => chooseAndUpload<UploadResult>(SCREENSHOT_URL),
  /** H5: upload the picked screenshot. */
  screenshotFile: (file: File | null | undefined) => uploadFileObject<UploadResult>(file, SCREENSHOT_URL),
  pic2word: (url: string, lang?: 'zh' | 'en') => postRoute<R['pic2word']>('/api/pic/pic2word', pic2wordBody(url, lang)),
  /** Rejects with a PromptError (nothing sent) when the text is empty. */
  word2pic: async (text: string, size?: Word2PicRequest['size']) => postRoute<R['word2pic']>('/api/pic/word2pic', word2picBody(text, size))
}
