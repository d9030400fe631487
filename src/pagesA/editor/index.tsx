// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useEffect, useRef, useState, type ComponentType } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text, ScrollView } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { redirect } from '@/utils/navigation'
import { rememberReturn } from '@/utils/loginReturn'
import { useRemote } from '@/utils/useRemote'
import SettingsTab from './SettingsTab'
import RecipesTab from './RecipesTab'
import ShipmentsTab from './ShipmentsTab'
import PickupTab from './PickupPointsPanel'
import WithdrawalsTab from './WithdrawalsTab'
import ReviewsTab from './ReviewsTab'
import OperatorsTab from './OperatorsTab'
import AuditTab from './AuditTab'
import SeriesTab from './SeriesTab'
import ComplaintsTab from './ComplaintsTab'
import PdfTab from './PdfTab'
import DataTab from './DataTab'
import EventsTab from './EventsTab'
import ModerationTab from './ModerationTab'
import './index.scss'

/** The operator's tabs; each is a component of its own file. */
const TABS: Array<{ key: string; label: MessageKey; Tab: ComponentType }> = [
  { key: 'series', label: 'editor.tabSeries', Tab: SeriesTab },
  { key: 'shipments', label: 'editor.tabShipments', Tab: ShipmentsTab },
  { key: 'pickup', label: 'editor.tabPickup', Tab: PickupTab },
  { key: 'events', label: 'opEvents.tab', Tab: EventsTab },
  { key: 'withdrawals', label: 'editor.tabWithdrawals', Tab: WithdrawalsTab },
  { key: 'reviews', label: 'editor.tabReviews', Tab: ReviewsTab },
  { key: 'recipes', label: 'editor.tabRecipes', Tab: RecipesTab },
  { key: 'settings', label: 'editor.tabSettings', Tab: SettingsTab },
  { key: 'operators', label: 'opRoles.tab', Tab: OperatorsTab },
  { key: 'complaints', label: 'complaints.tab', Tab: ComplaintsTab },
  { key: 'moderation', label: 'moderation.tab', Tab: ModerationTab },
  { key: 'pdf', label: 'pdfPages.tab', Tab: PdfTab },
  { key: 'data', label: 'dataTab.tab', Tab: DataTab },
  { key: 'audit', label: 'audit.tab', Tab: AuditTab }
]

/**
 * The operator's desk: series, shipments, pickup counters, withdrawals, recipes, settings, operators, the audit log,
 * shoppers' complaints.
 * The role is asked of the server each time the page is shown (a role granted or revoked meanwhile
 * counts), and no tab (so no operator call) is rendered before the answer: a shopper who opens the
 * editor by its URL sees "no access" and nothing else, an anonymous visitor is asked to log in (and
 * comes back here after). The server refuses them anyway (401/403 on every operator route).
 */
function EditorPage () {
  const [tab, setTab] = useState(TABS[0].key)
  // the role as the server says it now (not as a session restored earlier remembers it)
  const role = useRemote(() => sessionStore.restore(), [], { loadOnMount: false })
  const checked: 'no' | 'yes' | 'failed' = role.data === undefined ? 'no' : role.data ? 'yes' : 'failed'
  const check = () => {
    if (!sessionStore.loggedIn) return
    void role.reload()
  }
  // when the page opens, and again each time it is shown after that (back from another page)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(check, [])
  const shows = useRef(0)
  useDidShow(() => { if (shows.current++ > 0) check() })
  if (!sessionStore.loggedIn) {
    return (
      <PageShell className='editor-page'>
        <EmptyState icon='🔒' text={t('editor.loginFirst')}
          action={{ label: t('profile.loginNow'), onClick: () => { rememberReturn('/pages/editor/index'); void redirect('/pages/login/index') } }} />
      </PageShell>
    )
  }
  if (checked === 'failed' && !sessionStore.user) {
    return <PageShell className='editor-page'><EmptyState icon='⚠️' text={t('request.networkError')} action={{ label: t('feedback.retry'), onClick: () => { role.setData(() => undefined); check() } }} /></PageShell>
  }
  if (checked === 'no' || !sessionStore.user) return <PageShell className='editor-page'><Text className='editor-hint'>{t('feedback.loading')}</Text></PageShell>
  if (sessionStore.user.role !== 'operator') {
    return <PageShell className='editor-page'><EmptyState icon='⛔' text={t('editor.noAccess')} /></PageShell>
  }
  const Current = TABS.find(x => x.key === tab)!.Tab
  return (
    <PageShell className='editor-page'>
      <ScrollView scrollX className='editor-tabs' enableFlex>
        {TABS.map(x => (
          <View key={x.key} className={`editor-tab editor-tab-${x.key} ${tab === x.key ? 'editor-tab--on' : ''}`} onClick={() => setTab(x.key)}>{t(x.label)}</View>
        ))}
      </ScrollView>
      <Current />
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(EditorPage))
