import { View, Text } from '@tarojs/components'
import { SHOW_LIMITS } from '~types/limits'
import type { ShowReportEntry } from '~types/show'
import { t } from '@/stores/locale'
import { formatTime } from '@/utils/format'

interface Props {
  reports: ShowReportEntry[]
  /** Reports not yet dealt with that count toward hiding. */
  weightedCount: number
  /** Reports not yet dealt with. */
  reportCount: number
}

/**
 * Who reported a post or comment (issue 48), for operators: each reporter masked with their account
 * id, the reason, their words, when, and whether the report counts toward hiding (an account with
 * nothing bought counts for nothing) or was dealt with by the last restore.
 */
export default function ModerationReports ({ reports, weightedCount, reportCount }: Props) {
  if (!reports.length) return null
  return (
    <View className='moderation-reports'>
      <Text className='moderation-reports__title'>{t('moderation.reportsTitle')}</Text>
      {reportCount > 0 && (
        <Text className='moderation-reports__counting'>{t('moderation.counting', { n: weightedCount, limit: SHOW_LIMITS.reportsToHide })}</Text>
      )}
      {reports.map(r => (
        <View key={r.reporterId} className={`moderation-report moderation-report-${r.reporterId}${r.reviewed ? ' moderation-report--reviewed' : ''}`}>
          <View className='moderation-report__line'>
            <Text className='moderation-report__who'>{r.reporterName} · #{r.reporterId}</Text>
            <Text className='moderation-report__reason'>{t(`show.reason.${r.reason}`)}</Text>
            <Text className='moderation-report__time'>{formatTime(r.createdAt)}</Text>
          </View>
          <View className='moderation-report__line'>
            {r.reviewed
              ? <Text className='moderation-report__tag moderation-report__tag--reviewed'>{t('moderation.reportReviewed')}</Text>
              : r.weighted
                ? <Text className='moderation-report__tag moderation-report__tag--counts'>{t('moderation.reportCounts')}</Text>
                : <Text className='moderation-report__tag moderation-report__tag--nostake'>{t('moderation.reportNoStake')}</Text>}
          </View>
          {r.note && <Text className='moderation-report__note'>“{r.note}”</Text>}
        </View>
      ))}
    </View>
  )
}
