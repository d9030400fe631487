import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import MenuList, { type MenuItem } from '@/components/MenuList'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { toast } from '@/utils/feedback'

const ROWS: { key: string; icon: string; label: MessageKey }[] = [
  { key: 'password', icon: '🔑', label: 'security.password' },
  { key: 'phone', icon: '📱', label: 'security.phone' },
  { key: 'email', icon: '✉️', label: 'security.email' },
  { key: 'sessions', icon: '💻', label: 'security.sessions' },
  { key: 'limits', icon: '🛡️', label: 'security.limits' },
  { key: 'guardian', icon: '👪', label: 'security.guardian' }
]

/** Account security: password, bindings, sessions, spending limits, guardian consent. */
function SecurityPage () {
  const items: MenuItem[] = ROWS.map(r => ({
    key: r.key, icon: r.icon, label: t(r.label), onClick: () => { void toast({ message: t('feedback.comingSoon') }) }
  }))
  return (
    <PageShell className='security-page'>
      <MenuList items={items} />
    </PageShell>
  )
}

export default observer(SecurityPage)
