/** Configuration: defaults, one clear message per bad variable, TRUST_PROXY forms, features. */
import path from 'node:path'
import { ConfigError, DEFAULTS, features, loadConfig } from '../../server/src/config'

describe('config', () => {
  test('defaults', () => {
    const c = loadConfig({}, '/srv/shop')
    expect(c).toMatchObject({
      nodeEnv: 'development', isProduction: false, port: 3000, host: '127.0.0.1',
      dataDir: path.resolve('/srv/shop', '.data'), staticDir: path.resolve('/srv/shop', 'dist/h5'),
      apiPrefix: '/dev-api', trustProxy: false, databaseUrl: undefined, smtpUrl: undefined,
      mailFrom: DEFAULTS.MAIL_FROM, wechat: { apiBase: 'https://api.weixin.qq.com' }
    })
    expect(features(c)).toEqual({ mail: true, sms: true, weapp: false, wechatWeb: false })
  })

  test('request logs: in production and tests; in development only when LOG_LEVEL asks (issue 48: npm start buried its banner)', () => {
    expect(loadConfig({}).requestLogs).toBe(false)
    expect(loadConfig({ NODE_ENV: 'development' }).requestLogs).toBe(false)
    expect(loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'info' }).requestLogs).toBe(true)
    expect(loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'debug' }).requestLogs).toBe(true)
    expect(loadConfig({ NODE_ENV: 'production' }).requestLogs).toBe(true)
    expect(loadConfig({ NODE_ENV: 'test' }).requestLogs).toBe(true)
  })

  test('every bad variable is reported by name, all at once', () => {
    let error: ConfigError | undefined
    try {
      loadConfig({
        NODE_ENV: 'staging', PORT: '70000', DATABASE_URL: 'mysql://x', API_PREFIX: 'api/', SMTP_URL: 'http://mail',
        SMS_PROVIDER_URL: 'ftp://sms', WECHAT_APPID: 'wx1', WECHAT_OAUTH_SECRET: 's', WECHAT_API_BASE: 'nope', TRUST_PROXY: 'sometimes'
      })
    } catch (e) {
      error = e as ConfigError
    }
    expect(error).toBeInstanceOf(ConfigError)
    const text = error!.problems.join('\n')
    for (const name of ['NODE_ENV', 'PORT', 'DATABASE_URL', 'API_PREFIX', 'SMTP_URL', 'SMS_PROVIDER_URL', 'WECHAT_APPID and WECHAT_SECRET', 'WECHAT_OAUTH_APPID and WECHAT_OAUTH_SECRET', 'WECHAT_API_BASE', 'TRUST_PROXY']) {
      expect(text).toContain(name)
    }
    expect(error!.problems).toHaveLength(10)
    expect(error!.message).toMatch(/^Invalid configuration:\n {2}- /)
  })

  test('WORKERS: one process by default; several only on PostgreSQL; a whole number from 1 to 64', () => {
    expect(loadConfig({}).workers).toBe(1)
    expect(loadConfig({ WORKERS: '4', DATABASE_URL: 'postgres://shop@127.0.0.1/shop' }).workers).toBe(4)
    expect(() => loadConfig({ WORKERS: '2' })).toThrow('WORKERS=2 needs PostgreSQL (DATABASE_URL)')
    for (const bad of ['0', '65', '1.5', 'two', '-1']) expect(() => loadConfig({ WORKERS: bad, DATABASE_URL: 'postgres://shop@127.0.0.1/shop' })).toThrow('WORKERS must be a whole number')
    // events: the sweep and the template's keywords
    expect(loadConfig({}).events).toMatchObject({ wechatTemplateKeys: ['thing1', 'time2', 'thing3', 'thing4'], miniProgramState: 'formal', sweepMs: 60000 })
    expect(() => loadConfig({ WECHAT_EVENT_TEMPLATE_ID: 'tmpl_1' })).toThrow('WECHAT_EVENT_TEMPLATE_ID needs WECHAT_APPID')
    expect(() => loadConfig({ WECHAT_EVENT_TEMPLATE_KEYS: 'thing1,time2' })).toThrow('WECHAT_EVENT_TEMPLATE_KEYS must be four keywords')
    expect(() => loadConfig({ EVENT_REMINDER_SWEEP_MS: '10' })).toThrow('EVENT_REMINDER_SWEEP_MS')
  })

  test('TRUST_PROXY: off by default; on; a hop count; a list of addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'on' }).trustProxy).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', '::1'])
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1/40' })).toThrow(/TRUST_PROXY/)
  })

  test('production: mail and SMS only when configured; WeChat when both id and secret are set', () => {
    const bare = loadConfig({ NODE_ENV: 'production' })
    expect(features(bare)).toEqual({ mail: false, sms: false, weapp: false, wechatWeb: false })
    const full = loadConfig({
      NODE_ENV: 'production', SMTP_URL: 'smtps://u:p@smtp.example.com', SMS_PROVIDER_URL: 'https://sms.example.com/send',
      WECHAT_APPID: 'a', WECHAT_SECRET: 'b', WECHAT_OAUTH_APPID: 'c', WECHAT_OAUTH_SECRET: 'd', DATABASE_URL: 'postgres://u@db/shop'
    })
    expect(features(full)).toEqual({ mail: true, sms: true, weapp: true, wechatWeb: true })
    expect(full.databaseUrl).toBe('postgres://u@db/shop')
  })

  test('maps and parcel tracking: off without keys; keys, SK and API bases checked', () => {
    const off = loadConfig({})
    expect(off.maps).toEqual({ tencent: undefined, amap: undefined, tencentApiBase: 'https://apis.map.qq.com', amapApiBase: 'https://restapi.amap.com', routeProvider: null, webMap: null })
    expect(off.express).toEqual({ kuaidi100: undefined, apiBase: 'https://poll.kuaidi100.com', shipFromCity: '广东省深圳市' })
    const on = loadConfig({
      TENCENT_MAP_KEY: 'OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77', TENCENT_MAP_SK: 'abcDEF123456', AMAP_KEY: '0123456789abcdef0123456789abcdef',
      KUAIDI100_CUSTOMER: 'ABCDEF0123456789', KUAIDI100_KEY: 'Key123', KUAIDI100_API_BASE: 'http://127.0.0.1:9/'
    })
    expect(on.maps.tencent).toEqual({ key: 'OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77', sk: 'abcDEF123456' })
    expect(on.maps.amap).toEqual({ key: '0123456789abcdef0123456789abcdef' })
    // routes and the map: Tencent when its key is set, unless MAP_PROVIDER says amap; AMap alone serves too
    expect(on.maps.routeProvider).toBe('tencentMap')
    const amapKey = { AMAP_KEY: '0123456789abcdef0123456789abcdef' }
    expect(loadConfig(amapKey).maps.routeProvider).toBe('amap')
    expect(loadConfig({ ...amapKey, TENCENT_MAP_KEY: 'OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77', MAP_PROVIDER: 'amap' }).maps.routeProvider).toBe('amap')
    expect(() => loadConfig({ ...amapKey, MAP_PROVIDER: 'tencent' })).toThrow('MAP_PROVIDER=tencent needs TENCENT_MAP_KEY')
    expect(() => loadConfig({ ...amapKey, MAP_PROVIDER: 'baidu' })).toThrow('MAP_PROVIDER must be tencent or amap')
    // the H5 map: Tencent's JavaScript API GL with its own browser key
    expect(loadConfig({ TENCENT_MAP_JS_KEY: 'OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77' }).maps.webMap).toEqual({ script: 'https://map.qq.com/api/gljs?v=1.exp&key=OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77' })
    expect(() => loadConfig({ TENCENT_MAP_JS_KEY: 'bad key!' })).toThrow('TENCENT_MAP_JS_KEY')
    expect(on.express).toEqual({ kuaidi100: { customer: 'ABCDEF0123456789', key: 'Key123' }, apiBase: 'http://127.0.0.1:9', shipFromCity: '广东省深圳市' })
    expect(loadConfig({ SHIP_FROM_CITY: '浙江省杭州市' }).express.shipFromCity).toBe('浙江省杭州市')
    let error: ConfigError | undefined
    try {
      loadConfig({ TENCENT_MAP_SK: 'abcDEF123456', AMAP_KEY: 'short', KUAIDI100_KEY: 'Key123', AMAP_API_BASE: 'restapi.amap.com', TENCENT_MAP_API_BASE: 'ftp://x' })
    } catch (e) {
      error = e as ConfigError
    }
    const text = error!.problems.join('\n')
    for (const name of ['TENCENT_MAP_SK is set but TENCENT_MAP_KEY is not', 'AMAP_KEY', 'KUAIDI100_CUSTOMER and KUAIDI100_KEY', 'AMAP_API_BASE', 'TENCENT_MAP_API_BASE']) {
      expect(text).toContain(name)
    }
    expect(error!.problems).toHaveLength(5)
  })

  test('price comparison (JD Union) and travel (Juhe): off without keys; key and secret together; API bases checked', () => {
    const off = loadConfig({})
    expect(off.jdUnion).toBeUndefined()
    expect(off.juhe).toEqual({ apiBase: 'https://apis.juhe.cn', trainKey: undefined, flightKey: undefined })
    const on = loadConfig({ JD_UNION_APP_KEY: 'k1', JD_UNION_APP_SECRET: 's1', JUHE_TRAIN_KEY: 'tk', JUHE_API_BASE: 'http://127.0.0.1:9/' })
    expect(on.jdUnion).toEqual({ appKey: 'k1', appSecret: 's1', apiBase: 'https://api.jd.com/routerjson' })
    expect(on.juhe).toEqual({ apiBase: 'http://127.0.0.1:9', trainKey: 'tk', flightKey: undefined })
    let error: ConfigError | undefined
    try {
      loadConfig({ JD_UNION_APP_KEY: 'k1', JD_UNION_API_BASE: 'api.jd.com', JUHE_API_BASE: 'ftp://x' })
    } catch (e) {
      error = e as ConfigError
    }
    expect(error!.problems).toEqual([
      expect.stringContaining('JD_UNION_APP_KEY and JD_UNION_APP_SECRET must be set together'),
      expect.stringContaining('JD_UNION_API_BASE'),
      expect.stringContaining('JUHE_API_BASE')
    ])
  })

  test('robots, the complaint mailbox and the alert language: off by default; a Feishu bot needs its secret; each checked', () => {
    const off = loadConfig({})
    expect(off).toMatchObject({ robots: {}, complaintMailboxes: [], alertLocale: 'zh' })
    const on = loadConfig({
      FEISHU_WEBHOOK_URL: 'https://open.feishu.cn/open-apis/bot/v2/hook/abc', FEISHU_WEBHOOK_SECRET: 's3cret',
      WECOM_WEBHOOK_URL: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k-1',
      COMPLAINT_MAILBOX: ' Support@Shop.example.com, boss@shop.example.com,support@shop.example.com ', ALERT_LANG: 'EN'
    })
    expect(on.robots).toEqual({
      feishu: { webhookUrl: 'https://open.feishu.cn/open-apis/bot/v2/hook/abc', secret: 's3cret' },
      wecom: { webhookUrl: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k-1' }
    })
    expect(on.complaintMailboxes).toEqual(['support@shop.example.com', 'boss@shop.example.com'])
    expect(on.alertLocale).toBe('en')
    let error: ConfigError | undefined
    try {
      loadConfig({ FEISHU_WEBHOOK_URL: 'https://open.feishu.cn/open-apis/bot/v2/hook/abc', WECOM_WEBHOOK_URL: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send', COMPLAINT_MAILBOX: 'support', ALERT_LANG: 'fr' })
    } catch (e) {
      error = e as ConfigError
    }
    const text = error!.problems.join('\n')
    for (const name of ['FEISHU_WEBHOOK_SECRET must be set with FEISHU_WEBHOOK_URL', 'WECOM_WEBHOOK_URL must be', 'COMPLAINT_MAILBOX: "support"', 'ALERT_LANG must be zh or en']) {
      expect(text).toContain(name)
    }
    expect(error!.problems).toHaveLength(4)
    expect(() => loadConfig({ FEISHU_WEBHOOK_SECRET: 'x' })).toThrow('FEISHU_WEBHOOK_SECRET is set but FEISHU_WEBHOOK_URL is not')
    expect(() => loadConfig({ FEISHU_WEBHOOK_URL: 'open.feishu.cn/hook', FEISHU_WEBHOOK_SECRET: 'x' })).toThrow('FEISHU_WEBHOOK_URL must be')
  })

  test('the task helpers: PDF engine on by default, video and music off without their keys; each checked', () => {
    const c = loadConfig({})
    expect([c.pdfEngine, c.video, c.music]).toEqual(['pdfjs', undefined, undefined])
    expect(loadConfig({ PDF_ENGINE: 'off' }).pdfEngine).toBe('off')
    expect(loadConfig({ VIDEO_API_KEY: 'k.s' }).video).toEqual({ base: 'https://open.bigmodel.cn/api/paas/v4', apiKey: 'k.s', model: 'cogvideox-flash' })
    expect(loadConfig({ VIDEO_API_KEY: 'k', VIDEO_API_BASE: 'http://127.0.0.1:9/v4/', VIDEO_MODEL: 'cogvideox-3' }).video).toEqual({ base: 'http://127.0.0.1:9/v4', apiKey: 'k', model: 'cogvideox-3' })
    expect(loadConfig({ MUSIC_API_BASE: 'http://127.0.0.1:3001/' }).music).toEqual({ base: 'http://127.0.0.1:3001', apiKey: null })
    expect(loadConfig({ MUSIC_API_BASE: 'https://suno.example.com', MUSIC_API_KEY: 'g' }).music).toEqual({ base: 'https://suno.example.com', apiKey: 'g' })
    let error: ConfigError | undefined
    try {
      loadConfig({ PDF_ENGINE: 'ghostscript', VIDEO_API_BASE: 'bigmodel', VIDEO_MODEL: 'a b', MUSIC_API_BASE: 'ftp://suno', MUSIC_API_KEY: 'k' })
    } catch (e) { error = e as ConfigError }
    const text = error!.problems.join('\n')
    for (const name of ['PDF_ENGINE must be pdfjs or off', 'VIDEO_API_BASE must be', 'VIDEO_MODEL must be', 'MUSIC_API_BASE must be']) expect(text).toContain(name)
    expect(() => loadConfig({ MUSIC_API_KEY: 'k' })).toThrow('MUSIC_API_KEY needs MUSIC_API_BASE')
  })

  test('empty variables count as unset', () => {
    expect(loadConfig({ PORT: '', SMTP_URL: '  ' })).toMatchObject({ port: 3000, smtpUrl: undefined })
  })
})

describe('logging', () => {
  test('LOG_LEVEL is validated', () => {
    expect(loadConfig({}).logLevel).toBe('info')
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug')
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/)
  })

  test('request URLs are logged without phone numbers, addresses or codes', () => {
    const { maskUrl } = jest.requireActual('../../server/src/http/logging')
    expect(maskUrl('/dev-api/login/sms/code?phone=13800138000')).toBe('/dev-api/login/sms/code?phone=***')
    expect(maskUrl('/dev-api/login/openid?code=abc&x=1')).toBe('/dev-api/login/openid?code=***&x=***')
    expect(maskUrl('/dev-api/login/openid?id=7')).toBe('/dev-api/login/openid?id=7')
    expect(maskUrl('/dev-api/getUserInfo')).toBe('/dev-api/getUserInfo')
  })
})
