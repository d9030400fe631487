/**
 * The foot of a list loaded a page at a time, the same in every list (issue 48): an empty list says it
 * is empty (its own words, an EmptyState), a list with more to come says so (or offers them), and only
 * a list that has rows and has shown them all says "no more" (feedback.noMore). "No more data" under
 * nothing at all read as if something had failed to load.
 */
import { Text } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import { t } from '@/stores/locale'
import EmptyState, { type EmptyStateProps } from '@/components/EmptyState'
import { listFoot } from './listFoot'

export interface ListEndProps {
  /** The rows shown so far (null/undefined: the first page has not come yet: nothing is said). */
  count: number | null | undefined
  /** More rows remain to be loaded. */
  hasMore: boolean
  /** A page is on its way. */
  loading?: boolean
  /** What an empty list says. */
  empty: EmptyStateProps
  /** What a list with more to come says (e.g. "pull up for more"); nothing when absent. */
  more?: string
  /** The class of the foot line (the page's own look). */
  className?: string
}

function ListEnd (props: ListEndProps) {
  const foot = listFoot(props)
  const cls = `list-end list-end--${foot} ${props.className ?? ''}`
  if (foot === 'empty') return <EmptyState {...props.empty} />
  if (foot === 'loading') return <Text className={cls}>{t('feedback.loading')}</Text>
  if (foot === 'more') return <Text className={cls}>{props.more}</Text>
  if (foot === 'end') return <Text className={cls}>{t('feedback.noMore')}</Text>
  return null
}

export default lightObserver(ListEnd)
