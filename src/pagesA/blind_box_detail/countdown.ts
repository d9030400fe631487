import { t } from '@/stores/locale'
import { clockText } from '@/utils/useTimeLeft'

/** "1 d 2:03:04" past a day, else "2:03:04" / "3:04". */
export function countdownText (seconds: number): string {
  const days = Math.floor(seconds / 86_400)
  return days > 0 ? t('drop.days', { d: days, clock: clockText(seconds % 86_400) }) : clockText(seconds)
}
