/**
 * WeChat's address import (issue 48), mini-program only: wx.chooseAddress opens WeChat's own address
 * book and hands back the one the user picks (name, phone, province, city, county, detail):
 * https://developers.weixin.qq.com/miniprogram/dev/api/open-api/address/wx.chooseAddress.html
 * It must be declared in app.json's requiredPrivateInfos (src/app.config.ts) and waits for the privacy
 * consent like the other private APIs (withPrivacyRetry). Closing WeChat's page ("fail cancel") is no
 * error: nothing is imported.
 */
import Taro from '@tarojs/taro'
import type { RegionParts } from '~types/regions'
import { refusalOf, withPrivacyRetry } from './permission'
import { normalizePhone } from './validation'

export interface ImportedAddress { name: string; phone: string; area: RegionParts | null; detail: string }

/** The mini-program has the import; the web app does not. */
export const canImportWechatAddress = () => process.env.TARO_ENV === 'weapp' && typeof Taro.chooseAddress === 'function'

/** The address the user picked in WeChat, or null when they closed its page. */
export async function importWechatAddress (): Promise<ImportedAddress | null> {
  let res: Taro.chooseAddress.SuccessCallbackResult
  try {
    res = await withPrivacyRetry(() => Taro.chooseAddress(), 'privacy.addressNeeded')
  } catch (e) {
    if (refusalOf(e) === 'cancel') return null
    throw e
  }
  const area = res.provinceName && res.cityName && res.countyName ? { province: res.provinceName, city: res.cityName, district: res.countyName } : null
  return {
    name: (res.userName ?? '').trim(),
    // WeChat keeps the number as typed there ("+86 138 0013 8000"); the form wants the 11 digits
    phone: normalizePhone(res.telNumber ?? '') ?? (res.telNumber ?? '').trim(),
    area,
    detail: (res.detailInfo ?? '').trim()
  }
}
