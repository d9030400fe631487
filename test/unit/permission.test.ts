/**
 * Issue 22 item 2: what a WeChat refusal means (privacy declined, a scope refused, a cancel), the privacy
 * prompt's store answering every held call, and what the pickers and the clipboard do when the privacy
 * prompt is declined: say why, offer to ask again, and run again when asked.
 */
import Taro from '@tarojs/taro'
import { localeStore } from '@/stores/locale'
import { PRIVACY_AGREE_BUTTON_ID, PrivacyStore } from '@/stores/privacy'
import { PermissionRefused, refusalOf, withPrivacyRetry } from '@/utils/permission'
import { chooseAndUpload, UploadError } from '@/services/upload'

beforeEach(() => { localeStore.setLocale('zh') })
afterEach(() => { jest.restoreAllMocks() })

describe('refusalOf', () => {
  test.each([
    [{ errMsg: 'getLocation:fail privacy permission is not authorized', errno: 104 }, 'privacy'],
    [{ errMsg: 'chooseImage:fail privacy permission is not authorized' }, 'privacy'],
    [{ errMsg: 'setClipboardData:fail', errno: 104 }, 'privacy'],
    [{ errMsg: 'getLocation:fail auth deny' }, 'scope'],
    [{ errMsg: 'authorize:fail auth deny' }, 'scope'],
    [{ errMsg: 'getLocation:fail:auth denied' }, 'scope'],
    [{ errMsg: 'authorize:fail authorize no response' }, 'scope'],
    [{ errMsg: 'chooseImage:fail cancel' }, 'cancel'],
    [{ errMsg: 'getLocation:fail system permission denied' }, 'other'],
    [{ errMsg: 'getLocation:fail the api need to be declared in the requiredPrivateInfos field in app.json/ext.json' }, 'other'],
    [new Error('network'), 'other'],
    [undefined, 'other']
  ])('%j is %s', (e, want) => {
    expect(refusalOf(e)).toBe(want)
  })
})

describe('the privacy store', () => {
  test('each held call is told the prompt is shown; agree answers them all with the agree button, once', () => {
    const store = new PrivacyStore()
    const a = jest.fn()
    const b = jest.fn()
    store.need(a)
    store.need(b)
    expect(store.open).toBe(true)
    expect(a).toHaveBeenCalledWith({ event: 'exposureAuthorization' })
    store.agree()
    expect(store.open).toBe(false)
    expect(a).toHaveBeenLastCalledWith({ event: 'agree', buttonId: PRIVACY_AGREE_BUTTON_ID })
    expect(b).toHaveBeenLastCalledWith({ event: 'agree', buttonId: PRIVACY_AGREE_BUTTON_ID })
    store.decline()
    expect(a).toHaveBeenCalledTimes(2)
  })

  test('decline lets the held calls fail (disagree), even when one resolve throws', () => {
    const store = new PrivacyStore()
    const bad = jest.fn((o: { event: string }) => { if (o.event === 'disagree') throw new Error('gone') })
    const good = jest.fn()
    store.need(bad)
    store.need(good)
    store.decline()
    expect(good).toHaveBeenLastCalledWith({ event: 'disagree' })
    expect(store.open).toBe(false)
  })
})

describe('withPrivacyRetry', () => {
  const declined = { errMsg: 'setClipboardData:fail privacy permission is not authorized', errno: 104 }

  test('declined, then "ask again": runs again and gives its result; the dialog says why', async () => {
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false, errMsg: 'showModal:ok' } as never)
    const run = jest.fn().mockRejectedValueOnce(declined).mockResolvedValueOnce('copied')
    await expect(withPrivacyRetry(run, 'privacy.clipboardNeeded')).resolves.toBe('copied')
    expect(run).toHaveBeenCalledTimes(2)
    expect(modal.mock.calls[0][0]).toMatchObject({ content: '复制需要你同意隐私保护指引，未同意时无法复制。', confirmText: '重新授权' })
  })

  test('declined, then cancel: PermissionRefused with the reason, and no second run', async () => {
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false, cancel: true, errMsg: 'showModal:ok' } as never)
    const run = jest.fn().mockRejectedValue(declined)
    const e = await withPrivacyRetry(run, 'privacy.imageNeeded').then(() => null, (err: unknown) => err)
    expect(e).toBeInstanceOf(PermissionRefused)
    expect((e as PermissionRefused).message).toBe('选择图片需要你同意隐私保护指引，未同意时无法继续。')
    expect(run).toHaveBeenCalledTimes(1)
  })

  test('any other failure passes through without a dialog', async () => {
    const modal = jest.spyOn(Taro, 'showModal')
    const cancel = { errMsg: 'chooseImage:fail cancel' }
    await expect(withPrivacyRetry(() => Promise.reject(cancel), 'privacy.imageNeeded')).rejects.toBe(cancel)
    expect(modal).not.toHaveBeenCalled()
  })
})

describe('chooseAndUpload with privacy declined', () => {
  test('declined and not asked again: an UploadError that says why, and nothing sent', async () => {
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false, cancel: true, errMsg: 'showModal:ok' } as never)
    jest.spyOn(Taro, 'chooseImage').mockRejectedValue({ errMsg: 'chooseImage:fail privacy permission is not authorized', errno: 104 } as never)
    const send = jest.spyOn(Taro, 'uploadFile')
    const e = await chooseAndUpload().then(() => null, (err: unknown) => err)
    expect(e).toBeInstanceOf(UploadError)
    expect(e).toMatchObject({ reason: 'privacy', message: '选择图片需要你同意隐私保护指引，未同意时无法继续。' })
    expect(send).not.toHaveBeenCalled()
  })

  test('a cancel stays "no file selected"', async () => {
    jest.spyOn(Taro, 'chooseImage').mockRejectedValue({ errMsg: 'chooseImage:fail cancel' } as never)
    await expect(chooseAndUpload()).rejects.toMatchObject({ reason: 'none', message: '未选择文件' })
  })
})
