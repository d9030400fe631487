/**
 * What the operator is told after a mail (issue 48): the server's answer names the channel, and a mail that
 * development's log stand-in only printed is never reported as sent (nobody received it).
 */
import type { ComplaintReplyResult, MailSendResult } from '~types/complaints'
import { t } from '@/stores/locale'

export interface MailToast { message: string; level: 'success' | 'none' }

/** After a complaint reply (POST /api/operator/complaintReply). */
export function replyToast (mailed: ComplaintReplyResult['mailed']): MailToast {
  switch (mailed) {
    case 'sent': return { message: t('complaints.mailedToast'), level: 'success' }
    case 'failed': return { message: t('complaints.mailFailedToast'), level: 'none' }
    case 'dev_log': return { message: t('complaints.devLogToast'), level: 'none' }
    default: return { message: t('complaints.repliedToast'), level: 'success' }
  }
}

/** After "mail the shopper" (POST /common/mail/send). */
export const mailSentToast = (sent: MailSendResult): MailToast => sent.channel === 'dev_log'
  ? { message: t('notify.devLogSent', { mail: sent.mail }), level: 'none' }
  : { message: t('notify.sent', { mail: sent.mail }), level: 'success' }
