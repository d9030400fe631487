import { Button, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import Section from '@/components/Section'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { buildQuery, navigate } from '@/utils/navigation'
import './WechatContact.scss'

/** Where a message card of the session leads back to: this panel. */
const CARD_PATH = '/pagesA/profile/index?contact=1'

/**
 * The mini-program's way to reach the shop (issue 48): WeChat's customer service session, opened by a
 * tap on <button open-type="contact"> (nothing else opens it). The session tells the shop's message
 * server who came (session-from: the account id) and offers the shopper a card of this page to send; a
 * card tapped in the session returns here with its path and query (bindcontact), which are followed.
 * https://developers.weixin.qq.com/miniprogram/dev/component/button.html
 * https://developers.weixin.qq.com/miniprogram/introduction/custom.html
 * Rendered only in the mini-program (H5 keeps the contact form, ContactPanel).
 */
function WechatContact () {
  const user = sessionStore.user
  const back = (e: { detail?: { path?: string; query?: Record<string, string> } }) => {
    const path = e.detail?.path
    if (path) void navigate(`/${path.replace(/^\/+/, '')}${buildQuery(e.detail?.query ?? {})}`)
  }
  return (
    <Section title={t('wechatService.title')} className='wechat-contact'>
      <Text className='wechat-contact__hint'>{t('wechatService.hint')}</Text>
      <Button className='btn btn--primary wechat-contact__button' openType='contact' sessionFrom={user ? `user:${user.id}` : 'guest'}
        showMessageCard sendMessageTitle={t('wechatService.cardTitle')} sendMessagePath={CARD_PATH} onContact={back}>
        💬 {t('wechatService.button')}
      </Button>
    </Section>
  )
}

export default observer(WechatContact)
