/**
 * The generic table API (spec 7, PRODUCT.md): POST /api/data/invoke?table=&method= with `param` as the
 * body, and POST /api/data/export?table= which answers an xlsx file, saved as the table name plus a
 * random id.
 */
import Taro from '@tarojs/taro'
import type { ApiEnvelope } from '~types/api'
import type { DataMethod, DataTable } from '~types/data'
import { isH5 } from '@/config'
import { randomString } from '@/utils/random'
import { ApiError } from './errors'
import { buildQuery } from '@/utils/navigation'
import { post, rawRequest } from './request'

export const invokeTable = <R = unknown>(table: DataTable, method: DataMethod, param: unknown = {}) =>
  post<R>(`/api/data/invoke${buildQuery({ table, method })}`, param)

export const exportFileName = (table: string) => `${table}_${randomString(8)}.xlsx`

/** UTF-8 bytes to text, without TextDecoder (the mini-program has none). */
export function utf8Decode (bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i++]
    let cp = b
    if (b >= 0xf0) cp = ((b & 7) << 18) | ((bytes[i++] & 63) << 12) | ((bytes[i++] & 63) << 6) | (bytes[i++] & 63)
    else if (b >= 0xe0) cp = ((b & 15) << 12) | ((bytes[i++] & 63) << 6) | (bytes[i++] & 63)
    else if (b >= 0xc0) cp = ((b & 31) << 6) | (bytes[i++] & 63)
    out += String.fromCodePoint(cp)
  }
  return out
}

/** Posts to a call that answers an xlsx file and saves it as `<stem>_<random>.xlsx`; resolves with the file name. */
export async function downloadXlsx (url: string, body: Record<string, unknown>, stem: string): Promise<string> {
  const res = await rawRequest<ArrayBuffer>({ url, method: 'POST', data: body, responseType: 'arraybuffer' })
  const type = String(res.header?.['content-type'] ?? res.header?.['Content-Type'] ?? '')
  if (type.includes('application/json')) {
    // a refusal comes as the usual envelope
    const envelope = JSON.parse(utf8Decode(new Uint8Array(res.data))) as ApiEnvelope
    throw new ApiError(envelope.code, envelope.message, envelope.data)
  }
  const name = exportFileName(stem)
  if (isH5()) {
    const blobUrl = URL.createObjectURL(new Blob([res.data], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }))
    const a = document.createElement('a')
    a.href = blobUrl
    a.download = name
    document.body.appendChild(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(blobUrl), 10000)
  } else {
    const filePath = `${Taro.env.USER_DATA_PATH}/${name}`
    await new Promise<void>((resolve, reject) => {
      Taro.getFileSystemManager().writeFile({ filePath, data: res.data, success: () => resolve(), fail: reject })
    })
    await Taro.openDocument({ filePath, fileType: 'xlsx', showMenu: true })
  }
  return name
}

/** Downloads the table as xlsx and saves it; resolves with the file name. */
export const exportTable = (table: DataTable, body: Record<string, unknown> = {}) =>
  downloadXlsx(`/api/data/export${buildQuery({ table })}`, body, table)
