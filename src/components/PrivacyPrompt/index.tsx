/**
 * The privacy prompt (issue 22 item 2): shown on the current page while WeChat holds a private API for the
 * user's consent (stores/privacy). Agree is a button of open-type agreePrivacyAuthorization: its tap is
 * what WeChat accepts as consent (resolve names the button's id); decline lets the held calls fail, and
 * the app goes on without them; the link opens the privacy guide (wx.openPrivacyContract).
 * https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/PrivacyAuthorize.html
 * https://developers.weixin.qq.com/miniprogram/dev/component/button.html (open-type agreePrivacyAuthorization)
 * The mini-program only: H5 renders nothing.
 */
import { Button, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { t } from '@/stores/locale'
import { PRIVACY_AGREE_BUTTON_ID, privacyStore } from '@/stores/privacy'
import { openPrivacyContract } from '@/utils/privacy'
import './index.scss'

function PrivacyPrompt () {
  if (process.env.TARO_ENV !== 'weapp' || !privacyStore.open) return null
  return (
    <View className='privacy-prompt' catchMove>
      <View className='privacy-prompt__card'>
        <Text className='privacy-prompt__title'>{t('privacy.title')}</Text>
        <View className='privacy-prompt__body'>
          <Text className='privacy-prompt__text'>{t('privacy.text', { app: t('app.name') })}</Text>
          <Text className='privacy-prompt__contract' onClick={openPrivacyContract}>{t('privacy.contract', { app: t('app.name') })}</Text>
          <Text className='privacy-prompt__text'>{t('privacy.after')}</Text>
        </View>
        <View className='privacy-prompt__actions'>
          <Button className='privacy-prompt__decline' onClick={privacyStore.decline}>{t('privacy.decline')}</Button>
          <Button id={PRIVACY_AGREE_BUTTON_ID} className='privacy-prompt__agree' openType='agreePrivacyAuthorization'
            onAgreePrivacyAuthorization={privacyStore.agree}>{t('privacy.agree')}</Button>
        </View>
      </View>
    </View>
  )
}

export default observer(PrivacyPrompt)
