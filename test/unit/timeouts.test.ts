/**
 * Spec 9: the platform's timeouts are 60000 ms for request, socket, upload and download. The
 * mini-program reads them from app.config (networkTimeout); each call also passes its own: a request
 * hands the platform 60000 ms (its own 50 s timer fires first), an upload and a download 60000 ms.
 */
import Taro from '@tarojs/taro'
import { PLATFORM_TIMEOUT_MS, REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS, DOWNLOAD_TIMEOUT_MS } from '@/constants'
import { platformTimeout } from '@/services/request'
import { chooseAndUpload } from '@/services/upload'

afterEach(() => { jest.restoreAllMocks() })

test('app.config: networkTimeout 60000 ms for request, socket, upload and download', () => {
  const g = globalThis as unknown as { defineAppConfig?: (c: unknown) => unknown }
  const before = g.defineAppConfig
  g.defineAppConfig = c => c
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const config = require('../../src/app.config').default as { networkTimeout: Record<string, number> }
    expect(PLATFORM_TIMEOUT_MS).toBe(60000)
    expect(config.networkTimeout).toEqual({ request: PLATFORM_TIMEOUT_MS, connectSocket: PLATFORM_TIMEOUT_MS, uploadFile: PLATFORM_TIMEOUT_MS, downloadFile: PLATFORM_TIMEOUT_MS })
  } finally { g.defineAppConfig = before }
})

test('a request hands the platform 60000 ms (the client\'s own 50 s comes first); a longer own timeout gets a little more', () => {
  expect(REQUEST_TIMEOUT_MS).toBe(50000)
  expect(platformTimeout(undefined)).toBe(60000)
  expect(platformTimeout(150)).toBe(60000)
  expect(platformTimeout(90000)).toBe(91000)
  expect([UPLOAD_TIMEOUT_MS, DOWNLOAD_TIMEOUT_MS]).toEqual([60000, 60000])
})

test('an upload asks the platform for 60000 ms', async () => {
  jest.spyOn(Taro, 'chooseImage').mockResolvedValue({ tempFilePaths: ['wxfile://a.png'], tempFiles: [{ path: 'wxfile://a.png', size: 10 }], errMsg: 'ok' } as never)
  const upload = jest.spyOn(Taro, 'uploadFile').mockResolvedValue({ statusCode: 200, data: JSON.stringify({ code: 200, message: 'ok', data: { url: '/media/u/a.png' } }), errMsg: 'ok' } as never)
  await chooseAndUpload().catch(() => undefined)
  expect(upload.mock.calls[0][0]).toMatchObject({ timeout: 60000, filePath: 'wxfile://a.png' })
})
