/**
 * The harness's privacy, scope and location rules (test/weapp/wx-privacy.js) refuse what WeChat refuses,
 * with WeChat's errMsg: so no flow can pass against a friendlier fake (issue 22 item 3).
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { install, PRIVACY_ERRNO } = require('./wx-privacy')
const { createHarness } = require('./harness')

const DECLARED = { requiredPrivateInfos: ['getLocation'], permission: { 'scope.userLocation': { desc: '填写收货地址' } } }
const dirs = []

/** A fresh wx, its state and an app.json of our own. */
function fake (app = DECLARED, state = {}) {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wx-privacy-'))
  dirs.push(dist)
  fs.writeFileSync(path.join(dist, 'app.json'), JSON.stringify(app))
  const wx = {}
  const ok = (name, opts, extra = {}) => {
    const res = { errMsg: `${name}:ok`, ...extra }
    setTimeout(() => { opts && opts.success && opts.success(res); opts && opts.complete && opts.complete(res) }, 0)
  }
  install(wx, state, { ok }, { dist })
  return { wx, state }
}

/** Calls a wx API: { ok, res }. */
function call (fn, opts = {}) {
  return new Promise(resolve => fn({ ...opts, success: res => resolve({ ok: true, res }), fail: res => resolve({ ok: false, res }) }))
}

afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

describe('getLocation', () => {
  test('not in app.json requiredPrivateInfos: refused before anything is asked', async () => {
    const { wx, state } = fake({ permission: DECLARED.permission }, { privacy: { agreed: true }, scopes: { 'scope.userLocation': true } })
    const { ok, res } = await call(wx.getLocation, { type: 'gcj02' })
    expect(ok).toBe(false)
    expect(res.errMsg).toBe('getLocation:fail the api need to be declared in the requiredPrivateInfos field in app.json/ext.json')
    expect(state.scopePopups).toEqual([])
  })

  test('without scope.userLocation desc: refused (the fake is stricter than WeChat here)', async () => {
    const { wx } = fake({ requiredPrivateInfos: ['getLocation'] }, { privacy: { agreed: true }, scopes: { 'scope.userLocation': true } })
    const { ok, res } = await call(wx.getLocation)
    expect(ok).toBe(false)
    expect(res.errMsg).toMatch(/^getLocation:fail .*scope\.userLocation.*desc/)
  })

  test('privacy not agreed and no listener: WeChat\'s own popup; declined, errno 104', async () => {
    const { wx, state } = fake(DECLARED, { scopeAnswers: { 'scope.userLocation': true } })
    const { ok, res } = await call(wx.getLocation)
    expect(ok).toBe(false)
    expect(res).toEqual({ errMsg: 'getLocation:fail privacy permission is not authorized', errno: PRIVACY_ERRNO })
    expect(state.scopePopups).toEqual([])
    state.privacy.popupAnswer = 'agree'
    expect((await call(wx.getLocation)).ok).toBe(true)
    expect(state.privacy.agreed).toBe(true)
  })

  test('privacy not agreed with a listener: the call waits for resolve; disagree fails it, the next call asks again', async () => {
    const { wx, state } = fake(DECLARED, { scopeAnswers: { 'scope.userLocation': true } })
    const asked = []
    wx.onNeedPrivacyAuthorization((resolve, info) => asked.push({ resolve, info }))
    const pending = call(wx.getLocation)
    await new Promise(r => setTimeout(r, 20))
    expect(asked).toHaveLength(1)
    expect(asked[0].info).toEqual({ referrer: 'getLocation' })
    let settled = false
    pending.then(() => { settled = true })
    await new Promise(r => setTimeout(r, 20))
    expect(settled).toBe(false)
    asked[0].resolve({ event: 'exposureAuthorization' })
    expect(state.privacy.exposures).toBe(1)
    asked[0].resolve({ event: 'disagree' })
    const { ok, res } = await pending
    expect(ok).toBe(false)
    expect(res.errno).toBe(104)
    expect(state.privacy.agreed).toBe(false)
    // a resolve answers once
    asked[0].resolve({ event: 'disagree' })
    const again = call(wx.getLocation)
    await new Promise(r => setTimeout(r, 20))
    expect(asked).toHaveLength(2)
    asked[1].resolve({ event: 'disagree' })
    expect((await again).ok).toBe(false)
  })

  test('agree counts only with the id of an agree button the user tapped', async () => {
    const { wx, state } = fake(DECLARED, { scopeAnswers: { 'scope.userLocation': true } })
    let resolve
    wx.onNeedPrivacyAuthorization(r => { resolve = r })
    const pending = call(wx.getLocation)
    await new Promise(r => setTimeout(r, 20))
    resolve({ event: 'agree', buttonId: 'agree-btn' })
    await new Promise(r => setTimeout(r, 20))
    expect(state.privacy.agreed).toBe(false)
    expect(state.privacy.ignoredResolves).toEqual([{ api: 'getLocation', event: 'agree', buttonId: 'agree-btn' }])
    state.privacy.tapped.push('agree-btn')
    resolve({ event: 'agree', buttonId: 'agree-btn' })
    const { ok, res } = await pending
    expect(ok).toBe(true)
    expect(res).toMatchObject({ errMsg: 'getLocation:ok', latitude: state.location.latitude, longitude: state.location.longitude })
    expect(state.privacy.agreed).toBe(true)
  })

  test('the scope: asked once; refused, it fails at once without asking until openSetting turns it on', async () => {
    const { wx, state } = fake(DECLARED, { privacy: { agreed: true }, scopeAnswers: { 'scope.userLocation': false } })
    expect(await call(wx.getLocation)).toEqual({ ok: false, res: { errMsg: 'getLocation:fail auth deny' } })
    expect(state.scopePopups).toEqual(['scope.userLocation'])
    state.scopeAnswers['scope.userLocation'] = true
    expect((await call(wx.getLocation)).res.errMsg).toBe('getLocation:fail auth deny')
    expect(await call(wx.authorize, { scope: 'scope.userLocation' })).toEqual({ ok: false, res: { errMsg: 'authorize:fail auth deny' } })
    expect(state.scopePopups).toHaveLength(1)
    expect((await call(wx.getSetting)).res.authSetting).toEqual({ 'scope.userLocation': false })
    // the settings page: the user switches location on
    state.settingsAnswers['scope.userLocation'] = true
    expect((await call(wx.openSetting)).res.authSetting).toEqual({ 'scope.userLocation': true })
    expect((await call(wx.getLocation)).ok).toBe(true)
  })

  test('no answer to the authorization popup counts as a refusal', async () => {
    const { wx, state } = fake(DECLARED, { privacy: { agreed: true } })
    expect((await call(wx.getLocation)).res.errMsg).toBe('getLocation:fail auth deny')
    expect(state.scopes).toEqual({ 'scope.userLocation': false })
  })
})

describe('authorize, getSetting, openSetting', () => {
  test('an unknown scope is refused; location asks privacy first; getSetting lists only what was asked', async () => {
    const { wx, state } = fake(DECLARED, { scopeAnswers: { 'scope.userLocation': true } })
    expect((await call(wx.authorize, { scope: 'scope.everything' })).res.errMsg).toBe('authorize:fail invalid scope')
    expect((await call(wx.getSetting)).res.authSetting).toEqual({})
    expect((await call(wx.authorize, { scope: 'scope.userLocation' })).res).toEqual({ errMsg: 'authorize:fail privacy permission is not authorized', errno: 104 })
    expect((await call(wx.authorize, { scope: 'scope.writePhotosAlbum' })).res.errno).toBe(104)
    expect(state.scopePopups).toEqual([])
    state.privacy.agreed = true
    expect((await call(wx.authorize, { scope: 'scope.userLocation' })).ok).toBe(true)
    expect((await call(wx.getSetting)).res.authSetting).toEqual({ 'scope.userLocation': true })
    // the settings page lists only scopes asked before
    state.settingsAnswers['scope.camera'] = true
    expect((await call(wx.openSetting)).res.authSetting).toEqual({ 'scope.userLocation': true })
  })
})

describe('privacy APIs', () => {
  test('getPrivacySetting, requirePrivacyAuthorize, openPrivacyContract', async () => {
    const { wx, state } = fake()
    expect((await call(wx.getPrivacySetting)).res).toMatchObject({ needAuthorization: true, privacyContractName: expect.any(String) })
    expect((await call(wx.requirePrivacyAuthorize)).res).toEqual({ errMsg: 'requirePrivacyAuthorize:fail privacy permission is not authorized', errno: 104 })
    await call(wx.openPrivacyContract)
    expect(state.privacy.contractOpened).toBe(1)
    state.privacy.agreed = true
    expect((await call(wx.getPrivacySetting)).res.needAuthorization).toBe(false)
    expect((await call(wx.requirePrivacyAuthorize)).ok).toBe(true)
  })
})

describe('pickers and the clipboard', () => {
  test.each(['chooseImage', 'chooseMedia', 'chooseMessageFile', 'setClipboardData', 'getClipboardData'])('%s: refused without privacy agreement', async (name) => {
    const { wx, state } = fake()
    state.clipboard = 'before'
    const { ok, res } = await call(wx[name], { data: 'SF123' })
    expect(ok).toBe(false)
    expect(res).toEqual({ errMsg: `${name}:fail privacy permission is not authorized`, errno: 104 })
    expect(state.clipboard).toBe('before')
  })

  test('agreed: they work', async () => {
    // any file on disk: the fake hands over its path and size
    const file = __filename
    const { wx, state } = fake(DECLARED, { privacy: { agreed: true }, chooseImage: { path: file, fail: '' }, chooseMessageFile: { path: file, name: 'a.pdf', fail: '' } })
    expect((await call(wx.chooseImage)).res.tempFilePaths).toEqual([file])
    expect((await call(wx.chooseMedia)).res.tempFiles[0].tempFilePath).toBe(file)
    expect((await call(wx.chooseMessageFile)).res.tempFiles[0]).toMatchObject({ path: file, name: 'a.pdf' })
    expect((await call(wx.setClipboardData, { data: 'SF123' })).ok).toBe(true)
    expect(state.clipboard).toBe('SF123')
    expect((await call(wx.getClipboardData)).res.data).toBe('SF123')
  })

  test('the harness installs these rules over its own pickers and clipboard', async () => {
    const h = createHarness()
    expect(h.state.privacy.agreed).toBe(false)
    const { res } = await call(wx.setClipboardData, { data: 'x' })
    expect(res.errno).toBe(104)
    expect(h.state.clipboard).not.toBe('x')
    const picked = await call(wx.chooseImage)
    expect(picked.res.errMsg).toBe('chooseImage:fail privacy permission is not authorized')
  })

  test('the weapp build declares getLocation and the location purpose', () => {
    const app = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../dist/weapp/app.json'), 'utf8'))
    expect(app.requiredPrivateInfos).toContain('getLocation')
    expect(app.permission['scope.userLocation'].desc.length).toBeGreaterThan(0)
    expect(app.permission['scope.userLocation'].desc.length).toBeLessThanOrEqual(30)
  })
})

describe('chooseAddress (issue 48)', () => {
  const WITH_ADDRESS = { ...DECLARED, requiredPrivateInfos: ['getLocation', 'chooseAddress'] }

  test('not in app.json requiredPrivateInfos: refused, even with privacy agreed', async () => {
    const { wx, state } = fake(DECLARED, { privacy: { agreed: true } })
    const { ok, res } = await call(wx.chooseAddress)
    expect(ok).toBe(false)
    expect(res.errMsg).toBe('chooseAddress:fail the api need to be declared in the requiredPrivateInfos field in app.json/ext.json')
    expect(state.privacy.asked).toEqual([])
  })

  test('declared but privacy not agreed: refused with errno 104 (WeChat\'s own popup declined)', async () => {
    const { wx } = fake(WITH_ADDRESS)
    const { ok, res } = await call(wx.chooseAddress)
    expect(ok).toBe(false)
    expect(res).toEqual({ errMsg: 'chooseAddress:fail privacy permission is not authorized', errno: PRIVACY_ERRNO })
  })

  test('the app\'s listener declines: refused; it agrees from its tapped button: the address', async () => {
    const { wx, state } = fake(WITH_ADDRESS)
    wx.onNeedPrivacyAuthorization(resolve => resolve({ event: 'disagree' }))
    expect((await call(wx.chooseAddress)).res.errno).toBe(PRIVACY_ERRNO)
    state.privacy.tapped.push('agree-btn')
    wx.onNeedPrivacyAuthorization(resolve => resolve({ event: 'agree', buttonId: 'agree-btn' }))
    const { ok, res } = await call(wx.chooseAddress)
    expect(ok).toBe(true)
    expect(res).toMatchObject({ errMsg: 'chooseAddress:ok', userName: expect.any(String), provinceName: '广东省', cityName: '深圳市', countyName: '南山区' })
    expect(state.privacy.asked).toEqual(['chooseAddress', 'chooseAddress'])
  })

  test('the user closes WeChat\'s address page: fail cancel', async () => {
    const { wx } = fake(WITH_ADDRESS, { privacy: { agreed: true }, wechatAddress: null })
    const { ok, res } = await call(wx.chooseAddress)
    expect(ok).toBe(false)
    expect(res.errMsg).toBe('chooseAddress:fail cancel')
  })

  test('the weapp build declares chooseAddress', () => {
    const app = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../dist/weapp/app.json'), 'utf8'))
    expect(app.requiredPrivateInfos).toEqual(expect.arrayContaining(['getLocation', 'chooseAddress']))
  })
})
