/**
 * Addresses per target (issue 22): the mini-program's API base is absolute (WeChat takes no relative
 * URL), https in a production build, and every URL built from it (requests, uploads, downloads, media)
 * is absolute there; H5 keeps the relative /dev-api.
 */
import { getConfig } from '@/config'
import { buildUrl } from '@/services/request'
import { mediaUrl } from '@/utils/media'
import { isValidExternal } from '@/utils/navigation'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { weappApiBase, DEV_WEAPP_API_BASE } = require('../../scripts/weapp-api-base.js') as {
  weappApiBase: (o: { base?: string, production: boolean }) => string
  DEV_WEAPP_API_BASE: string
}

const saved = { env: process.env.TARO_ENV, base: process.env.TARO_APP_API_BASE }
afterEach(() => {
  process.env.TARO_ENV = saved.env
  if (saved.base === undefined) delete process.env.TARO_APP_API_BASE
  else process.env.TARO_APP_API_BASE = saved.base
})

describe('the base the weapp build compiles in (scripts/weapp-api-base.js)', () => {
  it('a development build defaults to npm start\'s server, absolute', () => {
    expect(weappApiBase({ production: false })).toBe('http://127.0.0.1:3000/dev-api')
    expect(DEV_WEAPP_API_BASE).toBe('http://127.0.0.1:3000/dev-api')
    // a phone on the LAN: the machine's address over http is fine in development
    expect(weappApiBase({ base: 'http://192.168.1.20:3000/dev-api/', production: false })).toBe('http://192.168.1.20:3000/dev-api')
  })

  it('a production build takes only an absolute https address and says which variable to set', () => {
    expect(weappApiBase({ base: 'https://api.example.com/dev-api', production: true })).toBe('https://api.example.com/dev-api')
    for (const base of [undefined, '', '   ']) {
      expect(() => weappApiBase({ base, production: true })).toThrow(/TARO_APP_API_BASE/)
    }
    expect(() => weappApiBase({ base: '/dev-api', production: true })).toThrow(/TARO_APP_API_BASE is "\/dev-api".*absolute/s)
    expect(() => weappApiBase({ base: 'http://api.example.com/dev-api', production: true })).toThrow(/TARO_APP_API_BASE is "http:\/\/api\.example\.com\/dev-api".*only https/s)
  })

  it('refuses what WeChat could not request in any build', () => {
    for (const base of ['/dev-api', 'dev-api', 'api.example.com/dev-api', 'ftp://api.example.com/x', '//api.example.com/x', 'https://api.example.com/x?key=1']) {
      expect(() => weappApiBase({ base, production: false })).toThrow(/TARO_APP_API_BASE/)
    }
  })
})

describe('URLs in the mini-program are absolute', () => {
  it('without TARO_APP_API_BASE: the development default, for calls and media alike', () => {
    process.env.TARO_ENV = 'weapp'
    delete process.env.TARO_APP_API_BASE
    expect(getConfig().apiBase).toBe('http://127.0.0.1:3000/dev-api')
    expect(buildUrl('/login/passwd')).toBe('http://127.0.0.1:3000/dev-api/login/passwd')
    expect(mediaUrl('/media/art/a.webp')).toBe('http://127.0.0.1:3000/media/art/a.webp')
  })

  it('with an https base: uploads, downloads and images go to its origin', () => {
    process.env.TARO_ENV = 'weapp'
    process.env.TARO_APP_API_BASE = 'https://api.shop.test/dev-api'
    expect(buildUrl('/common/upload')).toBe('https://api.shop.test/dev-api/common/upload')
    expect(mediaUrl('/media/uploads/x.png')).toBe('https://api.shop.test/media/uploads/x.png')
    expect(mediaUrl('https://cdn.example.com/y.png')).toBe('https://cdn.example.com/y.png')
  })

  it('web_view opens only https pages in the mini-program (WeChat\'s web-view refuses http); H5 opens both', () => {
    process.env.TARO_ENV = 'weapp'
    expect(isValidExternal('https://example.com/a')).toBe(true)
    expect(isValidExternal('http://example.com/a')).toBe(false)
    process.env.TARO_ENV = 'h5'
    expect(isValidExternal('http://example.com/a')).toBe(true)
  })

  it('H5 keeps the relative base (the page\'s own origin)', () => {
    process.env.TARO_ENV = 'h5'
    delete process.env.TARO_APP_API_BASE
    expect(buildUrl('/login/passwd')).toBe('/dev-api/login/passwd')
    expect(mediaUrl('/media/art/a.webp')).toBe('/media/art/a.webp')
  })
})
