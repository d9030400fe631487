/**
 * Image uploads of the series editor (types/editor.ts `upload`): the mini-program picks with
 * Taro.chooseImage and sends with Taro.uploadFile; H5 takes the File of a file input (ImagePicker) and
 * sends it as multipart/form-data with fetch. Both go to the same route with the same headers, their
 * answers pass the same session rules as every request (an ended session clears the token and goes to
 * the login page), and every failure is one of the spec's upload messages (or the server's own, which
 * names the reason). sendFile and postFile are the only two places a file leaves the device.
 */
import Taro from '@tarojs/taro'
import type { ApiEnvelope } from '~types/api'
import type { UploadResult } from '~types/editor'
import { UPLOAD_FIELD, UPLOAD_IMAGE_TYPES, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB, UPLOAD_PDF_MAX_BYTES, UPLOAD_PDF_MAX_MB } from '~types/limits'
import { UPLOAD_TIMEOUT_MS } from '@/constants'
import { t } from '@/stores/locale'
import { PermissionRefused, withPrivacyRetry } from '@/utils/permission'
import { ApiError } from './errors'
import { applySessionRules, buildHeaders, buildUrl } from './request'

const UPLOAD_URL = '/api/operator/upload'

/** An upload that did not happen, with the message to show (spec 9's upload texts). */
export class UploadError extends Error {
  constructor (readonly reason: 'none' | 'open' | 'path' | 'size' | 'type' | 'send' | 'failed' | 'privacy', message: string) {
    super(message)
    this.name = 'UploadError'
  }
}

const tooLarge = () => new UploadError('size', t('upload.tooLarge', { mb: UPLOAD_MAX_MB }))

/**
 * Reads the answer to an upload (the body a string from uploadFile, an object from fetch) through the same
 * session rules as every request (services/request applySessionRules: 401/403 end the session), then
 * the envelope.
 */
export function uploadAnswer<T = UploadResult> (raw: unknown, status = 200): T {
  let body: ApiEnvelope<T> | null = null
  try {
    body = (typeof raw === 'string' ? JSON.parse(raw) : raw) as ApiEnvelope<T>
  } catch {
    body = null
  }
  applySessionRules(status, body)
  if (status < 200 || status >= 300) throw new UploadError('failed', t('upload.failed'))
  if (!body || typeof body !== 'object' || typeof body.code !== 'number') throw new UploadError('failed', t('upload.failed'))
  if (body.code !== 200) throw new ApiError(body.code, body.message || t('upload.failed'), body.data)
  return body.data
}

/** The headers of an API call, without the JSON content type (the form sets its own). */
function uploadHeaders (url: string): Record<string, string> {
  const header = buildHeaders({ url })
  delete header['Content-Type']
  return header
}

/** A picker that gave nothing: cancelled, privacy declined (the text says why), or failed to open. */
function pickFailed (e: unknown): UploadError {
  if (e instanceof PermissionRefused) return new UploadError('privacy', e.message)
  const msg = String((e as { errMsg?: string })?.errMsg ?? e)
  return /cancel/i.test(msg) ? new UploadError('none', t('upload.noFile')) : new UploadError('open', t('upload.openFailed'))
}

/**
 * Mini-program: pick one image from the album or the camera and upload it (to the editor's upload,
 * or another route that takes a file: OCR, a shopper's screenshot).
 */
export async function chooseAndUpload<T = UploadResult> (url = UPLOAD_URL): Promise<T> {
  let picked: Taro.chooseImage.SuccessCallbackResult
  try {
    // privacy declined: says why and offers to ask again (issue 22)
    picked = await withPrivacyRetry(() => Taro.chooseImage({ count: 1, sizeType: ['compressed'], sourceType: ['album', 'camera'] }), 'privacy.imageNeeded')
  } catch (e) {
    throw pickFailed(e)
  }
  const path = picked.tempFilePaths?.[0]
  if (!path) throw new UploadError('path', t('upload.noPath'))
  const size = picked.tempFiles?.[0]?.size
  if (typeof size === 'number' && size > UPLOAD_MAX_BYTES) throw tooLarge()
  return sendFile<T>(path, url)
}

/** Mini-program: sends a file of the device as multipart field UPLOAD_FIELD, within UPLOAD_TIMEOUT_MS; the answer's data. */
async function sendFile<T> (filePath: string, url: string): Promise<T> {
  let res: Taro.uploadFile.SuccessCallbackResult
  try {
    res = await Taro.uploadFile({ url: buildUrl(url), filePath, name: UPLOAD_FIELD, header: uploadHeaders(url), timeout: UPLOAD_TIMEOUT_MS })
  } catch {
    throw new UploadError('send', t('upload.sendFailed'))
  }
  return uploadAnswer<T>(res.data, res.statusCode)
}

/** What a picked file is, checked before it is sent (the server checks the bytes again). */
export function checkPickedFile (file: { size: number; type: string } | null | undefined): void {
  if (!file) throw new UploadError('none', t('upload.noFile'))
  if (file.size > UPLOAD_MAX_BYTES) throw tooLarge()
  if (file.type && !(UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type)) throw new UploadError('type', t('upload.notImage'))
}

/** H5: sends a picked File as multipart field UPLOAD_FIELD, within UPLOAD_TIMEOUT_MS; the answer's data. */
async function postFile<T> (file: File, url: string): Promise<T> {
  const form = new FormData()
  form.append(UPLOAD_FIELD, file)
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), UPLOAD_TIMEOUT_MS)
  let res: Response
  try {
    res = await fetch(buildUrl(url), { method: 'POST', headers: uploadHeaders(url), body: form, signal: controller.signal })
  } catch {
    throw new UploadError('send', t('upload.sendFailed'))
  } finally {
    clearTimeout(timer)
  }
  let json: unknown = null
  try { json = await res.json() } catch { /* not JSON: uploadAnswer says the upload failed */ }
  return uploadAnswer<T>(json, res.status)
}

/** H5: upload the File a file input picked (to the editor's upload, or another route that takes a file). */
export async function uploadFileObject<T = UploadResult> (file: File | null | undefined, url = UPLOAD_URL): Promise<T> {
  checkPickedFile(file)
  return postFile<T>(file as File, url)
}

// ---- PDFs (the editor's "PDF pages": a catalogue, an invoice) -------------------------------------------

const PDF_UPLOAD_URL = '/api/operator/uploadPdf'
const pdfTooLarge = () => new UploadError('size', t('pdfPages.tooLarge', { mb: UPLOAD_PDF_MAX_MB }))

/** What a picked PDF is, checked before it is sent (the server checks its bytes again). */
export function checkPickedPdf (file: { size: number; type?: string; name?: string } | null | undefined): void {
  if (!file) throw new UploadError('none', t('upload.noFile'))
  if (file.size > UPLOAD_PDF_MAX_BYTES) throw pdfTooLarge()
  const typeOk = !file.type || file.type === 'application/pdf'
  const nameOk = !file.name || /\.pdf$/i.test(file.name)
  if (!typeOk || !nameOk) throw new UploadError('type', t('pdfPages.notPdf'))
}

/** H5: upload the PDF a file input picked. */
export async function uploadPdfObject (file: File | null | undefined): Promise<UploadResult> {
  checkPickedPdf(file)
  return postFile<UploadResult>(file as File, PDF_UPLOAD_URL)
}

/** Mini-program: pick a PDF from a chat (the only file picker WeChat offers) and upload it. */
export async function chooseAndUploadPdf (): Promise<UploadResult> {
  let picked: Taro.chooseMessageFile.SuccessCallbackResult
  try {
    picked = await withPrivacyRetry(() => Taro.chooseMessageFile({ count: 1, type: 'file', extension: ['pdf'] }), 'privacy.fileNeeded')
  } catch (e) {
    throw pickFailed(e)
  }
  const file = picked.tempFiles?.[0]
  if (!file?.path) throw new UploadError('path', t('upload.noPath'))
  checkPickedPdf({ size: file.size, name: file.name })
  return sendFile<UploadResult>(file.path, PDF_UPLOAD_URL)
}
