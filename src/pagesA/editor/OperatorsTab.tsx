import { useEffect, useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { OPERATOR_LIMITS } from '~types/limits'
import type { OperatorUserView } from '~types/operators'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { operatorRoleApi } from '@/services/operators'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatTime } from '@/utils/format'
import { userLabel } from './operatorLabel'
import './OperatorsTab.scss'

const PAGE = 20

/**
 * The operators: who they are, and an account search (user name, phone or e-mail, shown masked) to
 * grant or revoke the role. The server refuses an operator's own role and the last operator's; the
 * buttons say so before anyone taps them. Every change is in the audit log.
 */
function OperatorsTab () {
  const [operators, setOperators] = useState<OperatorUserView[] | null>(null)
  const [query, setQuery] = useState('')
  const [searched, setSearched] = useState<string | null>(null)
  const [results, setResults] = useState<OperatorUserView[]>([])
  const [total, setTotal] = useState(0)
  const [busy, setBusy] = useState(false)

  const loadOperators = () => operatorRoleApi.users({ page: 1, size: OPERATOR_LIMITS.pageSizeMax, role: 'operator' })
    .then(r => setOperators(r.list), e => toast({ message: errorMessage(e) }))
  useEffect(() => { void loadOperators() }, [])

  const search = async (page = 1, text = searched ?? '') => {
    try {
      const q = text.trim()
      const r = await operatorRoleApi.users({ page, size: PAGE, ...(q ? { query: q } : {}) })
      setResults(prev => (page === 1 ? r.list : [...prev, ...r.list]))
      setTotal(r.total)
      setSearched(text)
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }

  const change = async (u: OperatorUserView, role: 'operator' | 'shopper') => {
    if (busy) return
    const user = userLabel(u)
    const ok = await dialog({ message: t(role === 'operator' ? 'opRoles.confirmGrant' : 'opRoles.confirmRevoke', { user }) })
    if (!ok) return
    setBusy(true)
    try {
      await loading.wrap(operatorRoleApi.roleSave({ userId: u.id, role }))
      toast({ message: t(role === 'operator' ? 'opRoles.granted' : 'opRoles.revoked', { user }), level: 'success' })
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
      await loadOperators()
      if (searched !== null) await search(1)
    }
  }

  const lastOne = (operators?.length ?? 0) <= 1
  /** Why a revoke button is off, or null when it is on. */
  const revokeBlocked = (u: OperatorUserView): string | null => u.self ? t('opRoles.selfHint') : lastOne ? t('opRoles.lastHint') : null

  const row = (u: OperatorUserView) => {
    const blocked = u.role === 'operator' ? revokeBlocked(u) : null
    return (
      <View key={u.id} className={`op-user op-user-${u.id} op-user--${u.role}`}>
        <View className='op-user__main'>
          <View className='op-user__head'>
            <Text className='op-user__name'>{userLabel(u)}{u.self ? ` ${t('opRoles.you')}` : ''}</Text>
            <Text className={`op-user__role op-user__role--${u.role}`}>{t(u.role === 'operator' ? 'opRoles.roleOperator' : 'opRoles.roleShopper')}</Text>
          </View>
          <Text className='op-user__meta'>{[u.phone, u.email, t('opRoles.joined', { time: formatTime(u.createdAt) })].filter(Boolean).join(' · ')}</Text>
          {blocked && <Text className='op-user__meta'>{blocked}</Text>}
        </View>
        {u.role === 'shopper'
          ? <View className={`btn btn--primary op-user__grant ${busy ? 'btn--disabled' : ''}`} onClick={() => { void change(u, 'operator') }}>{t('opRoles.grant')}</View>
          : <View className={`btn btn--ghost op-user__revoke ${busy || blocked ? 'btn--disabled' : ''}`} onClick={() => { if (!blocked) void change(u, 'shopper') }}>{t('opRoles.revoke')}</View>}
      </View>
    )
  }

  return (
    <>
      <Section title={t('opRoles.title')} className='op-roles'>
        <Text className='editor-hint op-roles__hint'>{t('opRoles.configHint')}</Text>
        {operators === null
          ? <Text className='editor-hint'>{t('feedback.loading')}</Text>
          : operators.map(row)}
      </Section>
      <Section title={t('opRoles.findTitle')} className='op-find'>
        <View className='op-find__bar'>
          <Input className='editor-input op-find__input' value={query} maxlength={OPERATOR_LIMITS.userQueryMax}
            placeholder={t('opRoles.searchPlaceholder')} confirmType='search'
            onInput={e => setQuery(e.detail.value)} onConfirm={() => { void search(1, query) }} />
          <View className='btn btn--primary op-find__go' onClick={() => { void search(1, query) }}>{t('opRoles.search')}</View>
        </View>
        {searched !== null && (results.length === 0
          ? <EmptyState icon='🔍' text={t('opRoles.none')} />
          : (
            <>
              <Text className='editor-hint op-find__count'>{t('opRoles.found', { n: total })}</Text>
              {results.map(row)}
              {results.length < total && <View className='op-find__more' onClick={() => { void search(Math.floor(results.length / PAGE) + 1) }}>{t('opRoles.more')}</View>}
            </>
            ))}
      </Section>
    </>
  )
}

export default observer(OperatorsTab)
