/**
 * Download (spec 5: a download needs a url, "请提供下载地址"; spec 9: 60000 ms): Taro.downloadFile,
 * with the API's headers (and token) for our own paths, and the temporary file path it answers.
 */
import Taro from '@tarojs/taro'
import { DOWNLOAD_TIMEOUT_MS } from '@/constants'
import { t } from '@/stores/locale'
import { buildHeaders, buildUrl } from './request'

export class DownloadError extends Error {
  constructor (readonly reason: 'url' | 'failed' | 'status', message: string) {
    super(message)
    this.name = 'DownloadError'
  }
}

const isAbsolute = (url: string) => /^[a-z][a-z\d+.-]*:\/\//i.test(url)

/** Downloads `url` (a path of our API or an absolute URL); answers the temporary file's path. */
export async function download (url: string | null | undefined): Promise<string> {
  if (typeof url !== 'string' || !url.trim()) throw new DownloadError('url', t('download.urlRequired'))
  const external = isAbsolute(url)
  let res: Taro.downloadFile.FileSuccessCallbackResult
  try {
    res = await Taro.downloadFile({
      url: external ? url : buildUrl(url),
      header: external ? {} : buildHeaders({ url }),
      timeout: DOWNLOAD_TIMEOUT_MS
    } as Taro.downloadFile.Option)
  } catch {
    throw new DownloadError('failed', t('download.failed'))
  }
  if (res.statusCode < 200 || res.statusCode >= 300) throw new DownloadError('status', t('download.failed'))
  return res.tempFilePath
}
