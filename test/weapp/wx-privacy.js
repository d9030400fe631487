/**
 * WeChat's privacy consent, authorization scopes and location, for the simulator harness (issue 22 item 3).
 * Each rule is written from WeChat's documentation (the link beside it) and refuses what WeChat refuses,
 * with WeChat's errMsg; test/weapp/wx-privacy.weapp.test.js shows each refusal.
 *
 * State knobs (on the harness's `state`):
 * - state.privacy: { agreed, popupAnswer, contractName, tapped, asked, exposures, contractOpened, ignoredResolves }
 *     agreed: the user agreed to the privacy guide already (false: a new user).
 *     popupAnswer: what the user answers WeChat's own privacy popup, shown when the app registered no
 *       onNeedPrivacyAuthorization listener ('agree' | 'disagree').
 *     tapped: ids of agreePrivacyAuthorization buttons the user tapped (tapAgree() below adds to it).
 *     asked: the APIs that called the app's listener; exposures: resolve({event:'exposureAuthorization'})
 *       calls; contractOpened: openPrivacyContract calls; ignoredResolves: agree resolves naming an untapped
 *       button (the held call then stays held).
 * - state.scopes: { 'scope.userLocation': true | false } what the user decided (absent: never asked).
 * - state.scopeAnswers: what the user answers WeChat's authorization popup, per scope (true: allow). No
 *   answer counts as a refusal.
 * - state.settingsAnswers: what the user sets in the settings page wx.openSetting opens, per scope.
 * - state.scopePopups: the scopes WeChat asked the user about, in order.
 * - state.location: { latitude, longitude, ... } where the device is (WGS-84 as given; gcj02 asked for is
 *   handed the same numbers: the fake does not shift them).
 * - state.chooseImage (the harness's), state.chooseMessageFile: { path, name, fail } what the pickers give.
 * - state.clipboard: the clipboard's text.
 * - state.wechatAddress: the address the user picks in WeChat's address page (wx.chooseAddress's fields);
 *   null: they close the page (cancel).
 */
const fs = require('node:fs')
const path = require('node:path')

const DIST = path.resolve(__dirname, '../../dist/weapp')

/** WeChat's errno for "privacy permission is not authorized":
 * https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/PrivacyAuthorize.html */
const PRIVACY_ERRNO = 104

/**
 * The scopes a mini-program can ask for (wx.authorize with anything else fails "invalid scope"):
 * https://developers.weixin.qq.com/miniprogram/dev/framework/open-ability/authorize.html#scope-列表
 */
const SCOPES = [
  'scope.userLocation', 'scope.userFuzzyLocation', 'scope.userLocationBackground', 'scope.record', 'scope.camera',
  'scope.bluetooth', 'scope.writePhotosAlbum', 'scope.addPhoneContact', 'scope.addPhoneCalendar', 'scope.werun',
  'scope.address', 'scope.invoiceTitle', 'scope.invoice', 'scope.userInfo'
]

/** app.json as built (requiredPrivateInfos, permission). */
function appJson (dist) {
  try { return JSON.parse(fs.readFileSync(path.join(dist, 'app.json'), 'utf8')) } catch { return {} }
}

function install (wx, state, { ok }, options = {}) {
  const dist = options.dist || DIST
  state.privacy = { agreed: false, popupAnswer: 'disagree', contractName: '《拾盒隐私保护指引》', tapped: [], asked: [], exposures: 0, contractOpened: 0, ignoredResolves: [], ...(state.privacy || {}) }
  state.scopes = state.scopes || {}
  state.scopeAnswers = state.scopeAnswers || {}
  state.settingsAnswers = state.settingsAnswers || {}
  state.scopePopups = state.scopePopups || []
  state.location = state.location || { latitude: 22.543096, longitude: 114.057865, speed: 0, accuracy: 30, altitude: 0, verticalAccuracy: 0, horizontalAccuracy: 30 }
  state.chooseMessageFile = state.chooseMessageFile || { path: '', name: '', fail: '' }
  if (state.clipboard === undefined) state.clipboard = ''
  if (state.wechatAddress === undefined) {
    state.wechatAddress = {
      userName: '韩梅梅', telNumber: '+86 139 0013 9000', postalCode: '518057', provinceName: '广东省', cityName: '深圳市',
      countyName: '南山区', streetName: '粤海街道', detailInfo: '科技园科苑路 15 号 2 栋 301', detailInfoNew: '科技园科苑路 15 号 2 栋 301', nationalCode: '440305'
    }
  }

  const fail = (opts, errMsg, extra = {}) => {
    const res = { errMsg, ...extra }
    setTimeout(() => { opts && opts.fail && opts.fail(res); opts && opts.complete && opts.complete(res) }, 0)
  }

  // ---- privacy -------------------------------------------------------------------------------------------
  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/privacy/wx.onNeedPrivacyAuthorization.html
  // A private API called before the user agreed is held, and the listener gets a resolve: {event: 'agree',
  // buttonId} goes on (WeChat checks that the agreePrivacyAuthorization button of that id was tapped),
  // {event: 'disagree'} fails it "<api>:fail privacy permission is not authorized"; {event:
  // 'exposureAuthorization'} only tells WeChat the prompt is shown. Not agreed, the next call asks again.
  // Without a listener WeChat shows its own popup (since 2023-09):
  // https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/PrivacyAuthorize.html
  let listener = null
  const refusePrivacy = (name, opts) => fail(opts, `${name}:fail privacy permission is not authorized`, { errno: PRIVACY_ERRNO })

  /** Runs `go` once the user agreed to the privacy guide; fails the call as WeChat does otherwise. */
  function privacyGate (name, opts, go) {
    if (state.privacy.agreed) { go(); return }
    if (!listener) {
      setTimeout(() => {
        if (state.privacy.popupAnswer === 'agree') { state.privacy.agreed = true; go() } else refusePrivacy(name, opts)
      }, 0)
      return
    }
    let settled = false
    const resolve = (option) => {
      if (settled || !option) return
      if (option.event === 'exposureAuthorization') { state.privacy.exposures++; return }
      if (option.event === 'agree') {
        if (!state.privacy.tapped.includes(option.buttonId)) { state.privacy.ignoredResolves.push({ api: name, ...option }); return }
        settled = true
        state.privacy.agreed = true
        go()
        return
      }
      if (option.event === 'disagree') { settled = true; refusePrivacy(name, opts) }
    }
    state.privacy.asked.push(name)
    setTimeout(() => listener(resolve, { referrer: name }), 0)
  }

  wx.onNeedPrivacyAuthorization = (fn) => { listener = typeof fn === 'function' ? fn : null }
  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/privacy/wx.requirePrivacyAuthorize.html
  // a private call that does nothing but ask
  wx.requirePrivacyAuthorize = (opts = {}) => privacyGate('requirePrivacyAuthorize', opts, () => ok('requirePrivacyAuthorize', opts))
  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/privacy/wx.getPrivacySetting.html
  wx.getPrivacySetting = (opts = {}) => ok('getPrivacySetting', opts, { needAuthorization: !state.privacy.agreed, privacyContractName: state.privacy.contractName })
  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/privacy/wx.openPrivacyContract.html
  wx.openPrivacyContract = (opts = {}) => { state.privacy.contractOpened++; ok('openPrivacyContract', opts) }

  // ---- scopes --------------------------------------------------------------------------------------------
  // https://developers.weixin.qq.com/miniprogram/dev/framework/open-ability/authorize.html
  // Never asked: WeChat asks the user (a popup); allowed: the call goes on; refused: it fails at once, with
  // no popup, until the user turns the scope on in the settings (wx.openSetting).
  function scopeGate (name, scope, opts, go) {
    const decided = state.scopes[scope]
    if (decided === true) { go(); return }
    if (decided === false) { fail(opts, `${name}:fail auth deny`); return }
    state.scopePopups.push(scope)
    setTimeout(() => {
      const allow = state.scopeAnswers[scope] === true
      state.scopes[scope] = allow
      if (allow) go(); else fail(opts, `${name}:fail auth deny`)
    }, 0)
  }

  /**
   * A location API's declarations: in requiredPrivateInfos (since 2022-07-14), else WeChat fails it
   * https://developers.weixin.qq.com/miniprogram/dev/reference/configuration/app.html#requiredPrivateInfos
   * and scope.userLocation's desc, the purpose WeChat's location popup states
   * https://developers.weixin.qq.com/miniprogram/dev/reference/configuration/app.html#permission
   * (WeChat documents no errMsg for a missing desc: the fake is stricter and refuses with one of its own.)
   */
  function declared (name, opts) {
    const app = appJson(dist)
    if (!(app.requiredPrivateInfos || []).includes(name)) {
      fail(opts, `${name}:fail the api need to be declared in the requiredPrivateInfos field in app.json/ext.json`)
      return false
    }
    const desc = app.permission && app.permission['scope.userLocation'] && app.permission['scope.userLocation'].desc
    if (typeof desc !== 'string' || !desc.trim()) {
      fail(opts, `${name}:fail (harness) app.json permission["scope.userLocation"].desc is missing: WeChat's location popup states it`)
      return false
    }
    return true
  }

  // https://developers.weixin.qq.com/miniprogram/dev/api/location/wx.getLocation.html
  // declared, then privacy, then the scope (privacy is asked before any authorization popup)
  wx.getLocation = (opts = {}) => {
    if (!declared('getLocation', opts)) return
    privacyGate('getLocation', opts, () => scopeGate('getLocation', 'scope.userLocation', opts, () => {
      const at = state.location
      ok('getLocation', opts, { speed: 0, accuracy: 30, altitude: 0, verticalAccuracy: 0, horizontalAccuracy: 30, ...at })
    }))
  }

  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/authorize/wx.authorize.html
  // wx.authorize of a scope is itself a private API in the privacy guide's list (location, werun, album,
  // contacts, calendar, microphone, camera, bluetooth: privacy first), scope.userInfo aside:
  // https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/miniprogram-intro.html
  wx.authorize = (opts = {}) => {
    const scope = opts.scope
    if (!SCOPES.includes(scope)) { fail(opts, 'authorize:fail invalid scope'); return }
    const gate = scope === 'scope.userInfo' ? (go) => go() : (go) => privacyGate('authorize', opts, go)
    gate(() => scopeGate('authorize', scope, opts, () => ok('authorize', opts)))
  }
  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/setting/wx.getSetting.html
  // only the scopes the user was asked about appear
  wx.getSetting = (opts = {}) => ok('getSetting', opts, { authSetting: { ...state.scopes } })
  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/setting/wx.openSetting.html
  // the settings page lists the scopes asked before; what the user switches there sticks
  wx.openSetting = (opts = {}) => {
    for (const scope of Object.keys(state.scopes)) {
      if (typeof state.settingsAnswers[scope] === 'boolean') state.scopes[scope] = state.settingsAnswers[scope]
    }
    ok('openSetting', opts, { authSetting: { ...state.scopes } })
  }

  // ---- private pickers and the clipboard -------------------------------------------------------------------
  // The privacy guide's API list: chooseImage, chooseMedia, chooseMessageFile, setClipboardData and
  // getClipboardData are held until the user agreed:
  // https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/miniprogram-intro.html
  const pickedImage = (opts, name, shape) => {
    const { path: file, fail: failure } = state.chooseImage
    if (failure) { fail(opts, failure.replace(/^chooseImage:/, `${name}:`)); return }
    ok(name, opts, shape(file, fs.statSync(file).size))
  }
  const baseChooseImage = wx.chooseImage
  wx.chooseImage = (opts = {}) => privacyGate('chooseImage', opts, () => {
    if (typeof baseChooseImage === 'function') baseChooseImage(opts)
    else pickedImage(opts, 'chooseImage', (file, size) => ({ tempFilePaths: [file], tempFiles: [{ path: file, size }] }))
  })
  // https://developers.weixin.qq.com/miniprogram/dev/api/media/video/wx.chooseMedia.html
  wx.chooseMedia = (opts = {}) => privacyGate('chooseMedia', opts, () =>
    pickedImage(opts, 'chooseMedia', (file, size) => ({ type: 'image', tempFiles: [{ tempFilePath: file, size, fileType: 'image' }] })))
  // https://developers.weixin.qq.com/miniprogram/dev/api/media/image/wx.chooseMessageFile.html
  wx.chooseMessageFile = (opts = {}) => privacyGate('chooseMessageFile', opts, () => {
    const { path: file, name, fail: failure } = state.chooseMessageFile
    if (failure) { fail(opts, failure); return }
    if (!file) { fail(opts, 'chooseMessageFile:fail cancel'); return }
    ok('chooseMessageFile', opts, { tempFiles: [{ path: file, size: fs.statSync(file).size, name: name || path.basename(file), type: 'file', time: Math.floor(Date.now() / 1000) }] })
  })
  // https://developers.weixin.qq.com/miniprogram/dev/api/device/clipboard/wx.setClipboardData.html
  const baseSetClipboard = wx.setClipboardData
  wx.setClipboardData = (opts = {}) => privacyGate('setClipboardData', opts, () => {
    if (typeof baseSetClipboard === 'function') baseSetClipboard(opts)
    else { state.clipboard = opts.data; ok('setClipboardData', opts) }
  })
  // ---- the address import ---------------------------------------------------------------------------------
  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/address/wx.chooseAddress.html
  // Mini-programs published since 2022-07-14 must declare it in app.json's requiredPrivateInfos, else it
  // fails as getLocation does (the same page and
  // https://developers.weixin.qq.com/miniprogram/dev/reference/configuration/app.html#requiredPrivateInfos);
  // it is in the privacy guide's API list (收货地址), so it waits for the consent:
  // https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/miniprogram-intro.html
  // No scope popup: the user picks or closes WeChat's own address page, and closing it fails "chooseAddress:fail cancel".
  wx.chooseAddress = (opts = {}) => {
    if (!(appJson(dist).requiredPrivateInfos || []).includes('chooseAddress')) {
      fail(opts, 'chooseAddress:fail the api need to be declared in the requiredPrivateInfos field in app.json/ext.json')
      return
    }
    privacyGate('chooseAddress', opts, () => {
      if (!state.wechatAddress) { fail(opts, 'chooseAddress:fail cancel'); return }
      ok('chooseAddress', opts, { ...state.wechatAddress })
    })
  }
  // https://developers.weixin.qq.com/miniprogram/dev/api/device/clipboard/wx.getClipboardData.html
  wx.getClipboardData = (opts = {}) => privacyGate('getClipboardData', opts, () => ok('getClipboardData', opts, { data: state.clipboard || '' }))
}

/** The alias under which the compiled template (base.wxml) passes a button's open-type. */
function openTypeAlias (dist) {
  const wxml = fs.readFileSync(path.join(dist, 'base.wxml'), 'utf8')
  const tag = /<button\b[^>]*>/.exec(wxml)
  const m = tag && /open-type="\{\{i\.(\w+)\}\}"/.exec(tag[0])
  if (!m) throw new Error('base.wxml: no <button open-type> in the compiled template')
  return m[1]
}

/** The node of Taro's render data whose sid is `sid` (what the template renders the element from). */
function renderNode (data, sid, seen = new Set()) {
  if (!data || typeof data !== 'object' || seen.has(data)) return null
  seen.add(data)
  if (data.sid === sid) return data
  for (const v of Object.values(data)) {
    const found = renderNode(v, sid, seen)
    if (found) return found
  }
  return null
}

/**
 * The user taps an agreePrivacyAuthorization button: WeChat notes the tap (what resolve({event: 'agree',
 * buttonId}) is checked against) and fires the button's agreeprivacyauthorization event. The button must be
 * rendered with that open-type (read from the page's render data through the compiled template's alias:
 * the simulator does not keep a built-in button's properties).
 * https://developers.weixin.qq.com/miniprogram/dev/component/button.html
 */
function tapAgree (state, page, selector = '#privacy-agree', dist = DIST) {
  const button = page.querySelector(selector)
  if (!button) throw new Error(`no ${selector} on the page`)
  const el = button._exparserNode
  const node = renderNode(page.instance.data, el.__attributes['data-sid'])
  const openType = String((node && node[openTypeAlias(dist)]) || '')
  if (!openType.split('|').includes('agreePrivacyAuthorization')) throw new Error(`${selector} is not an agreePrivacyAuthorization button (open-type "${openType}")`)
  state.privacy.tapped.push(el.id)
  button.dispatchEvent('agreeprivacyauthorization')
}

module.exports = { install, tapAgree, PRIVACY_ERRNO, SCOPES }
