import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { TASK_POLL_MS } from '~types/limits'
import { t } from '@/stores/locale'
import { errorMessage } from '@/services/request'
import type { TaskView } from './useTaskPoll'

export interface TaskProgressProps<T> {
  view: TaskView<T>
  /** What the task says about itself while it runs (e.g. pages done), or null for the time waited. */
  detail?: (answer: T | null, seconds: number) => string | null
  /** 0..1 when the task tells how far it is. */
  fraction?: (answer: T | null) => number | null
  /** The message of a task that ended failed (the server's own, when it gave one). */
  failure?: (answer: T | null, error: unknown) => string
  onCancel: () => void
  className?: string
}

/** A running task's progress (a bar, what it says, how long it has waited) with its Cancel, or how it ended badly. */
function TaskProgress<T> ({ view, detail, fraction, failure, onCancel, className = '' }: TaskProgressProps<T>) {
  if (view.phase === 'idle' || view.phase === 'done') return null
  if (view.phase === 'cancelled') return <Text className={`editor-hint task-progress task-progress--cancelled ${className}`}>{t('tasks.cancelled')}</Text>
  if (view.phase === 'failed') {
    const message = failure ? failure(view.answer, view.error) : errorMessage(view.error)
    return <Text className={`editor-hint editor-hint--error task-progress task-progress--failed ${className}`}>{t('tasks.failed', { message })}</Text>
  }
  const answer = view.phase === 'polling' ? view.answer : null
  const seconds = view.phase === 'polling' ? Math.round((view.attempts * TASK_POLL_MS) / 1000) : 0
  const part = fraction?.(answer) ?? null
  const text = view.phase === 'starting' ? t('tasks.starting') : detail?.(answer, seconds) ?? t('tasks.running', { s: seconds })
  return (
    <View className={`task-progress task-progress--running ${className}`}>
      <View className={`task-progress__bar ${part === null ? 'task-progress__bar--busy' : ''}`}>
        <View className='task-progress__fill' style={{ width: `${Math.round((part ?? 0.35) * 100)}%` }} />
      </View>
      <View className='task-progress__row'>
        <Text className='task-progress__text'>{text}</Text>
        <Text className='task-progress__cancel' onClick={onCancel}>{t('tasks.cancel')}</Text>
      </View>
    </View>
  )
}

export default observer(TaskProgress) as typeof TaskProgress
