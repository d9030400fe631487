/**
 * A purchase that ended after its page was gone (stores/lateNotices): told on whatever page is showing,
 * at the top, with a link to its opening, until closed. Inside every page's PageShell, on both builds.
 */
import { Text, View } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import { lateNotices, openingLink, ORDERS_LINK, type LateNotice as Notice } from '@/stores/lateNotices'
import { t } from '@/stores/locale'
import { formatCents, a11yControl } from '@/utils/format'
import { navigate } from '@/utils/navigation'
import './index.scss'

const two = (v: number) => String(v).padStart(2, '0')
/** The device's local time of day (the shopper's own clock, as they pressed Pay). */
const clockTime = (ms: number) => { const d = new Date(ms); return `${d.getMonth() + 1}/${d.getDate()} ${two(d.getHours())}:${two(d.getMinutes())}` }

function lines (n: Notice): { title: string; text: string[] } {
  const where = { caseId: n.caseId, slots: n.slots.join(', ') }
  switch (n.kind) {
    case 'bought': return { title: t('late.boughtTitle'), text: [t('late.bought', { ...where, amount: formatCents(n.totalCents ?? 0) })] }
    case 'ownBox': return { title: t('late.ownBoxTitle'), text: [t('late.ownBox', where)] }
    case 'failed': return {
      title: t('late.failedTitle'),
      text: [t('late.failed', { ...where, reason: n.reason ?? '' }), ...(n.toppedUpCents ? [t('late.moneyKept', { amount: formatCents(n.toppedUpCents) })] : [])]
    }
    case 'unknown': return { title: t('late.unknownTitle'), text: [t('late.unknown', { ...where, time: clockTime(n.sentAt ?? 0) })] }
  }
}

function LateNotice () {
  const notices = lateNotices.notices
  if (!notices.length) return null
  return (
    <View className='late-notices'>
      {notices.map(n => {
        const { title, text } = lines(n)
        const open = () => {
          lateNotices.dismiss(n.id)
          if (n.purchaseId) void navigate(openingLink(n.purchaseId))
          else if (n.kind === 'unknown') void navigate(ORDERS_LINK)
        }
        return (
          <View key={n.id} className={`late-notice late-notice--${n.kind}`} {...a11yControl(undefined, 'status')}>
            <Text className='late-notice__title'>{title}</Text>
            {text.map((line, i) => <Text key={i} className='late-notice__text'>{line}</Text>)}
            <View className='late-notice__actions'>
              {n.purchaseId !== undefined && <View className='late-notice__view' {...a11yControl()} onClick={open}>{t('late.view')}</View>}
              {n.kind === 'unknown' && <View className='late-notice__view' {...a11yControl()} onClick={open}>{t('late.orders')}</View>}
              <View className='late-notice__close' {...a11yControl()} onClick={() => lateNotices.dismiss(n.id)}>{t('late.close')}</View>
            </View>
          </View>
        )
      })}
    </View>
  )
}

export default lightObserver(LateNotice)
