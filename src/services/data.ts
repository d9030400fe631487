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

/** Downloads the table as xlsx and saves it; resolves with the file name. */
export async function exportTable (table: DataTable, body: Record<string, unknown> = {}): Promise<string> {
  const res = await rawRequest<ArrayBuffer>({
    url: `/api/data/export${buildQuery({ table })}`, method: 'POST', data: body, responseType: 'arraybuffer'
  })
  const type = String(res.header?.['content-type'] ?? res.header?.['Content-Type'] ?? '')
  if (type.includes('application/json')) {
    // a refusal comes as the usual envelope
    const envelope = JSON.parse(new TextDecoder().decode(res.data)) as ApiEnvelope
    throw new ApiError(envelope.code, envelope.message, envelope.data)
  }
  const name = exportFileName(table)
  if (isH5()) {
    const url = URL.createObjectURL(new Blob([res.data], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }))
    const a = document.createElement('a')
    a.href = url
    a.download = name
    document.body.appendChild(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 10000)
  } else {
    const filePath = `${Taro.env.USER_DATA_PATH}/${name}`
    await new Promise<void>((resolve, reject) => {
      Taro.getFileSystemManager().writeFile({ filePath, data: res.data, success: () => resolve(), fail: reject })
    })
    await Taro.openDocument({ filePath, fileType: 'xlsx', showMenu: true })
  }
  return name
}
