/**
 * Image uploads of the series editor (types/editor.ts `upload`): the mini-program picks with
 * Taro.chooseImage and sends with Taro.uploadFile; H5 takes the File of a file input (ImagePicker) and
 * sends it as multipart/form-data with fetch. Both go to the same route with the same headers, and
 * every failure is one of the spec's upload messages (or the server's own, which names the reason).
 */
import Taro from '@tarojs/taro'
import type { ApiEnvelope } from '~types/api'
import type { UploadResult } from '~types/editor'
import { UPLOAD_FIELD, UPLOAD_IMAGE_TYPES, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB } from '~types/limits'
import { UPLOAD_TIMEOUT_MS } from '@/constants'
import { t } from '@/stores/locale'
import { ApiError } from './errors'
import { buildHeaders, buildUrl } from './request'

const UPLOAD_URL = '/api/operator/upload'

/** An upload that did not happen, with the message to show (spec 9's upload texts). */
export class UploadError extends Error {
  constructor (readonly reason: 'none' | 'open' | 'path' | 'size' | 'type' | 'send' | 'failed', message: string) {
    super(message)
    this.name = 'UploadError'
  }
}

const tooLarge = () => new UploadError('size', t('upload.tooLarge', { mb: UPLOAD_MAX_MB }))

/** Reads the envelope the server answered (a string from uploadFile, an object from fetch). */
export function uploadAnswer (raw: unknown): UploadResult {
  let body: ApiEnvelope<UploadResult> | null = null
  try {
    body = (typeof raw === 'string' ? JSON.parse(raw) : raw) as ApiEnvelope<UploadResult>
  } catch {
    body = null
  }
  if (!body || typeof body !== 'object' || typeof body.code !== 'number') throw new UploadError('failed', t('upload.failed'))
  if (body.code !== 200) throw new ApiError(body.code, body.message || t('upload.failed'), body.data)
  return body.data
}

/** The headers of an API call, without the JSON content type (the form sets its own). */
function uploadHeaders (): Record<string, string> {
  const header = buildHeaders({ url: UPLOAD_URL })
  delete header['Content-Type']
  return header
}

/** Mini-program: pick one image from the album or the camera and upload it. */
export async function chooseAndUpload (): Promise<UploadResult> {
  let picked: Taro.chooseImage.SuccessCallbackResult
  try {
    picked = await Taro.chooseImage({ count: 1, sizeType: ['compressed'], sourceType: ['album', 'camera'] })
  } catch (e) {
    const msg = String((e as { errMsg?: string })?.errMsg ?? e)
    throw /cancel/i.test(msg) ? new UploadError('none', t('upload.noFile')) : new UploadError('open', t('upload.openFailed'))
  }
  const path = picked.tempFilePaths?.[0]
  if (!path) throw new UploadError('path', t('upload.noPath'))
  const size = picked.tempFiles?.[0]?.size
  if (typeof size === 'number' && size > UPLOAD_MAX_BYTES) throw tooLarge()
  let res: Taro.uploadFile.SuccessCallbackResult
  try {
    res = await Taro.uploadFile({ url: buildUrl(UPLOAD_URL), filePath: path, name: UPLOAD_FIELD, header: uploadHeaders(), timeout: UPLOAD_TIMEOUT_MS })
  } catch {
    throw new UploadError('send', t('upload.sendFailed'))
  }
  if (res.statusCode < 200 || res.statusCode >= 300) throw new UploadError('failed', t('upload.failed'))
  return uploadAnswer(res.data)
}

/** What a picked file is, checked before it is sent (the server checks the bytes again). */
export function checkPickedFile (file: { size: number; type: string } | null | undefined): void {
  if (!file) throw new UploadError('none', t('upload.noFile'))
  if (file.size > UPLOAD_MAX_BYTES) throw tooLarge()
  if (file.type && !(UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type)) throw new UploadError('type', t('upload.notImage'))
}

/** H5: upload the File a file input picked. */
export async function uploadFileObject (file: File | null | undefined): Promise<UploadResult> {
  checkPickedFile(file)
  const form = new FormData()
  form.append(UPLOAD_FIELD, file as File)
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), UPLOAD_TIMEOUT_MS)
  let res: Response
  try {
    res = await fetch(buildUrl(UPLOAD_URL), { method: 'POST', headers: uploadHeaders(), body: form, signal: controller.signal })
  } catch {
    throw new UploadError('send', t('upload.sendFailed'))
  } finally {
    clearTimeout(timer)
  }
  if (!res.ok) throw new UploadError('failed', t('upload.failed'))
  let json: unknown
  try { json = await res.json() } catch { throw new UploadError('failed', t('upload.failed')) }
  return uploadAnswer(json)
}
