/**
 * Sharing a page (issue 24 item 4). The mini-program: "share to a friend", WeChat's share card of the
 * page (PageShell's useShareAppMessage). H5 outside WeChat, when the shop has its mini-program: "open in
 * WeChat" (a WeChat URL link of this page, POST /get_mp_url) and "share", which hands that link to the
 * phone's share sheet or copies it. H5 without the mini-program: the page's own address. Inside
 * WeChat's browser, its own menu shares the page: a tap says where it is.
 */
import { Button, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { isH5 } from '@/config'
import { errorMessage } from '@/services/request'
import { capabilitiesStore } from '@/stores/capabilities'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { miniProgramLink, sharePage } from '@/utils/share'
import { inWeChatBrowser } from '@/utils/wechatBrowser'
import { useRemote } from '@/utils/useRemote'
import './index.scss'

function ShareBar ({ title }: { title: string }) {
  // whether the shop has a mini-program to share (no until the shop's settings say so)
  const miniProgram = useRemote(() => capabilitiesStore.ensure(), []).data?.weapp ?? false

  if (!isH5()) {
    return (
      <View className='share-bar'>
        <Button className='share-bar__btn share-bar-wechat' openType='share'>{t('share.toFriend')}</Button>
      </View>
    )
  }
  const inWeChat = inWeChatBrowser()
  const openInWeChat = async () => {
    try {
      const url = await loading.wrap(miniProgramLink())
      window.location.href = url
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const share = async () => {
    if (inWeChat) { toast({ message: t('share.useMenu') }); return }
    try {
      const how = await sharePage(miniProgram ? 'miniProgram' : 'link', title, { h5: true, miniProgram })
      if (how === 'copied') toast({ message: t(miniProgram ? 'share.copiedMini' : 'share.copied'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  return (
    <View className='share-bar'>
      {miniProgram && !inWeChat && <Text className='share-bar__btn share-bar-open' onClick={openInWeChat}>{t('share.openInWeChat')}</Text>}
      <Text className='share-bar__btn share-bar-share' onClick={share}>{t('share.share')}</Text>
    </View>
  )
}

export default observer(ShareBar)
