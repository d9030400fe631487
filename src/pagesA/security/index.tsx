// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text, Input } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import type { LimitKind, LimitView, SecurityOverview } from '~types/security'
import { LOGIN_LIMITS } from '~types/limits'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import SessionsSection from './SessionsSection'
import AgeSection from './AgeSection'
import { securityApi } from '@/services/security'
import { errorMessage } from '@/services/request'
import { ApiError } from '@/services/errors'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { AMOUNT_INPUT_TYPE, formatCents, formatTime } from '@/utils/format'
import { loginToContinue } from '@/utils/loginReturn'
import { useCountdown } from '@/utils/useCountdown'
import { useRemote } from '@/utils/useRemote'
import { checkEmail, checkPhone, normalizePhone, PHONE_INPUT_MAX, PHONE_INPUT_TYPE } from '@/utils/validation'
import { CODE_MAX, CODE_RESEND_SECONDS, ENTRY_PAGE } from '@/constants'
import ReauthCode, { type ReauthDraft } from './ReauthCode'
import { defaultVia } from './reauth'
import { parseLimit, limitProblems } from './limits'
import './index.scss'

/** A wire field of a refusal (`data.field`), if it names one. */
const refusedField = (e: unknown): string | undefined => {
  const field = e instanceof ApiError ? (e.data as { field?: unknown } | null)?.field : undefined
  return typeof field === 'string' ? field : undefined
}

const limitText = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2).replace(/\.00$/, ''))

/**
 * Account security: the bindings (phone and e-mail by code), the password (changing it ends the other
 * sessions; an account without one proves it is the owner by a code), the devices logged in (end one,
 * all others, or everywhere), the shopper's own spending limits (lowering at once, raising after 24
 * hours), the recorded birth date with the guardian's consent and the one reviewed correction, and
 * deleting the account.
 */
function SecurityPage () {
  const [pwOpen, setPwOpen] = useState(false)
  const [pw, setPw] = useState({ current: '', next: '', again: '' })
  const [limits, setLimitsDraft] = useState<Record<LimitKind, string>>({ daily: '', monthly: '' })
  // binding a phone or an address: which form is open, what was typed, each with its own resend wait
  const [deletePw, setDeletePw] = useState('')
  // an account without a password proves it is the owner by a code (setting a password, deleting)
  const [pwProof, setPwProof] = useState<ReauthDraft>({ via: 'phone', code: '' })
  const [deleteProof, setDeleteProof] = useState<ReauthDraft>({ via: 'phone', code: '' })
  // problems shown beside their fields: 'pw.current', 'pw.next', 'pw.again', 'limit.daily', 'delete.proof' ...
  const [problems, setProblems] = useState<Record<string, string>>({})
  const [binding, setBinding] = useState<'phone' | 'email' | null>(null)
  const [bindForm, setBindForm] = useState({ target: '', code: '' })
  const waits = { phone: useCountdown(), email: useCountdown() }

  // read each time the page shows; the drafts follow each answer
  const overview = useRemote(() => securityApi.overview(), [], {
    loadOnMount: false,
    onError: e => toast({ message: errorMessage(e) }),
    onSuccess: (o: SecurityOverview) => {
      setLimitsDraft({ daily: limitText(o.limits.daily.cents), monthly: limitText(o.limits.monthly.cents) })
      // a code goes to a bound phone (else the address) unless the owner picked the other
      const via = defaultVia(o.phone, o.email)
      if (via) {
        const keep = (p: ReauthDraft) => ((p.via === 'phone' ? o.phone : o.email) ? p : { ...p, via })
        setPwProof(keep)
        setDeleteProof(keep)
      }
    }
  })
  const load = overview.reload
  const data = overview.data ?? null
  const failed = overview.failed
  useDidShow(() => { if (sessionStore.loggedIn) void load() })

  if (!sessionStore.loggedIn) {
    return (
      <PageShell className='security-page'>
        <EmptyState icon='🔒' text={t('login.requiredHere')} action={{ label: t('login.goLogin'), onClick: () => { void loginToContinue(t('login.requiredHere'), '/pages/security/index') } }} />
      </PageShell>
    )
  }
  if (!data) {
    return (
      <PageShell className='security-page'>
        {failed
          ? <EmptyState icon='⚠️' text={t('security.loadFailed')} action={{ label: t('feedback.retry'), onClick: () => { void load() } }} />
          : <Text className='security-hint'>{t('feedback.loading')}</Text>}
      </PageShell>
    )
  }

  // ---- password ----
  const canProve = data.hasPassword || !!defaultVia(data.phone, data.email)
  const pwProblems = (): Record<string, string> => {
    const out: Record<string, string> = {}
    if (data.hasPassword && !pw.current) out['pw.current'] = t('security.currentRequired')
    if (!data.hasPassword && !pwProof.code.trim()) out['pw.proof'] = t('security.codeRequired')
    if (pw.next.length < LOGIN_LIMITS.passwordMin || pw.next.length > LOGIN_LIMITS.passwordMax) out['pw.next'] = t('login.passwordLength')
    else if (data.hasPassword && pw.next === pw.current) out['pw.next'] = t('security.passwordSame')
    if (!out['pw.next'] && pw.next !== pw.again) out['pw.again'] = t('security.passwordMismatch')
    return out
  }
  /** Shows the problems of one form (keys starting with `prefix`), leaving the others' as they are. */
  const showProblems = (prefix: string, found: Record<string, string>) => setProblems(p => ({
    ...Object.fromEntries(Object.entries(p).filter(([k]) => !k.startsWith(prefix))), ...found
  }))
  const clearProblem = (key: string) => setProblems(p => { if (!(key in p)) return p; const { [key]: _gone, ...rest } = p; return rest })
  const changePassword = async () => {
    const found = pwProblems()
    showProblems('pw.', found)
    if (Object.keys(found).length) return
    try {
      const proof = data.hasPassword ? { currentPassword: pw.current } : { reauth: { via: pwProof.via, code: pwProof.code.trim() } }
      const { ended } = await loading.wrap(securityApi.changePassword({ ...proof, newPassword: pw.next }))
      toast({ message: t('security.passwordChanged', { n: ended }), level: 'success' })
      setPw({ current: '', next: '', again: '' })
      setPwProof(p => ({ ...p, code: '' }))
      setPwOpen(false)
      await load()
    } catch (e) {
      const at = ({ currentPassword: 'pw.current', newPassword: 'pw.next', code: 'pw.proof', reauth: 'pw.proof' } as Record<string, string>)[refusedField(e) ?? '']
      if (at) showProblems('pw.', { [at]: errorMessage(e) })
      else toast({ message: errorMessage(e) })
    }
  }

  // ---- bindings ----
  const openBind = (kind: 'phone' | 'email') => { setBinding(kind); setBindForm({ target: '', code: '' }) }
  const bindProblem = (kind: 'phone' | 'email'): string | null => {
    const bad = kind === 'phone' ? checkPhone(bindForm.target) : checkEmail(bindForm.target.trim())
    return bad ? t(bad) : null
  }
  /** What is sent: a phone as the 11 digits ("+86 138 0000 0000" -> 13800000000), an address trimmed. */
  const bindTarget = (kind: 'phone' | 'email') => (kind === 'phone' ? normalizePhone(bindForm.target) ?? bindForm.target.trim() : bindForm.target.trim())
  const sendBindCode = async (kind: 'phone' | 'email') => {
    if (waits[kind].running) return
    const problem = bindProblem(kind)
    if (problem) { toast({ message: problem }); return }
    try {
      await securityApi.bindCode(kind === 'phone' ? { phone: bindTarget(kind) } : { email: bindTarget(kind) })
      waits[kind].start(CODE_RESEND_SECONDS)
      toast({ message: t('login.codeSent'), level: 'success' })
    } catch (e) { toast({ message: `${t('login.codeSendFailed')}: ${errorMessage(e)}` }) }
  }
  const saveBind = async (kind: 'phone' | 'email') => {
    const problem = bindProblem(kind)
    if (problem) { toast({ message: problem }); return }
    if (!bindForm.code.trim()) { toast({ message: t('security.codeRequired') }); return }
    try {
      const target = bindTarget(kind)
      await loading.wrap(securityApi.bind({ ...(kind === 'phone' ? { phone: target } : { email: target }), code: bindForm.code.trim() }))
      toast({ message: t(kind === 'phone' ? 'security.phoneBound' : 'security.emailBound'), level: 'success' })
      setBinding(null)
      await load()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const bindRow = (kind: 'phone' | 'email', value: string | null) => (
    <View className={`bind bind-${kind}`}>
      <View className='security-row'>
        <Text className='security-row__label'>{t(kind === 'phone' ? 'login.phone' : 'login.email')}</Text>
        <Text className='security-row__value'>{value ?? t('security.notBound')}</Text>
        {binding !== kind && <Text className={`security-row__action bind-open-${kind}`} onClick={() => openBind(kind)}>{t(value ? 'security.change' : 'security.bind')}</Text>}
      </View>
      {binding === kind && (
        <View className='security-form bind-form'>
          <Input className={`security-input bind-target bind-target-${kind}`} type={kind === 'phone' ? PHONE_INPUT_TYPE : 'text'} maxlength={kind === 'phone' ? PHONE_INPUT_MAX : 254}
            value={bindForm.target} placeholder={t(kind === 'phone' ? 'login.phonePlaceholder' : 'login.emailPlaceholder')}
            onInput={e => { const v = e.detail.value; setBindForm(f => ({ ...f, target: v })) }} />
          <View className='bind-code-row'>
            <Input className='security-input bind-code' type='number' maxlength={CODE_MAX} value={bindForm.code} placeholder={t('login.codePlaceholder')}
              onInput={e => { const v = e.detail.value; setBindForm(f => ({ ...f, code: v })) }} />
            <View className={`bind-send ${waits[kind].running ? 'bind-send--wait' : ''}`} onClick={() => { void sendBindCode(kind) }}>
              {waits[kind].running ? t('login.resendIn', { n: waits[kind].left }) : t('login.sendCode')}
            </View>
          </View>
          <View className='security-actions'>
            <View className='btn btn--ghost' onClick={() => setBinding(null)}>{t('feedback.cancel')}</View>
            <View className='btn btn--primary bind-save' onClick={() => { void saveBind(kind) }}>{t('security.bindSave')}</View>
          </View>
        </View>
      )}
    </View>
  )

  // ---- limits ----
  const parsed = { daily: parseLimit(limits.daily), monthly: parseLimit(limits.monthly) }
  const limitIssues = limitProblems(limits.daily, limits.monthly)
  const saveLimits = async () => {
    showProblems('limit.', Object.fromEntries(Object.entries(limitIssues).map(([k, v]) => [`limit.${k}`, v])))
    if (!parsed.daily.ok || !parsed.monthly.ok || Object.keys(limitIssues).length) return
    // lowering applies at once and raising again waits 24 hours: the owner confirms what will apply now
    const lowered = (['daily', 'monthly'] as const).flatMap(kind => {
      const wanted = (parsed[kind] as { cents: number | null }).cents
      const now = data.limits[kind].cents
      return wanted !== null && (now === null || wanted < now) ? [{ kind, wanted }] : []
    })
    if (lowered.length) {
      const lines = lowered.map(l => t(l.wanted === 0 ? 'security.limitZeroLine' : 'security.limitLowerLine', {
        limit: t(l.kind === 'daily' ? 'security.daily' : 'security.monthly'), value: formatCents(l.wanted)
      }))
      if (!(await dialog({ title: t('security.limitLowerTitle'), message: [...lines, t('security.limitLowerRule')].join(' ') }))) return
    }
    try {
      const next = await loading.wrap(securityApi.setLimits({ daily: parsed.daily.ok ? parsed.daily.cents : null, monthly: parsed.monthly.ok ? parsed.monthly.cents : null }))
      const waiting = next.daily.pending || next.monthly.pending
      toast({ message: t(waiting ? 'security.limitsPending' : 'security.limitsSaved'), level: 'success' })
      await load()
    } catch (e) {
      const field = refusedField(e)
      if (field === 'daily' || field === 'monthly') showProblems('limit.', { [`limit.${field}`]: errorMessage(e) })
      else toast({ message: errorMessage(e) })
    }
  }
  const limitRow = (kind: LimitKind, view: LimitView) => (
    <View className={`limit limit-${kind}`}>
      <View className='limit__head'>
        <Text className='limit__label'>{t(kind === 'daily' ? 'security.daily' : 'security.monthly')}</Text>
        <Text className='limit__now'>{view.cents === null ? t('security.noLimit') : formatCents(view.cents)}</Text>
      </View>
      <Text className='limit__spent'>{t(kind === 'daily' ? 'security.spentToday' : 'security.spentMonth', { spent: formatCents(view.spentCents) })}</Text>
      {view.pending && (
        <Text className='limit__pending'>{t('security.pending', {
          value: view.pending.cents === null ? t('security.noLimit') : formatCents(view.pending.cents),
          at: formatTime(view.pending.appliesAt)
        })}</Text>
      )}
      <Input className={`security-input limit-input limit-input-${kind} ${limitIssues[kind] || problems[`limit.${kind}`] ? 'security-input--error' : ''}`} type={AMOUNT_INPUT_TYPE}
        value={limits[kind]} placeholder={t('security.limitPlaceholder')}
        onInput={e => { const v = e.detail.value; setLimitsDraft(d => ({ ...d, [kind]: v })); clearProblem(`limit.${kind}`) }} />
      {problem(`limit.${kind}`, limitIssues[kind])}
    </View>
  )

  // ---- deleting the account ----
  const deleteAccount = async () => {
    if (data.hasPassword && !deletePw) { showProblems('delete.', { 'delete.proof': t('security.currentRequired') }); return }
    if (!data.hasPassword && !deleteProof.code.trim()) { showProblems('delete.', { 'delete.proof': t('security.codeRequired') }); return }
    showProblems('delete.', {})
    const proof = data.hasPassword ? { password: deletePw } : { reauth: { via: deleteProof.via, code: deleteProof.code.trim() } }
    /** A refusal: beside the password or code when it names them, else a toast. */
    const refused = (e: unknown) => {
      if (['password', 'code', 'reauth'].includes(refusedField(e) ?? '')) showProblems('delete.', { 'delete.proof': errorMessage(e) })
      else toast({ message: errorMessage(e) })
    }
    // the proof and what stands in the way are checked first (a code is not used up): no confirmation for a typo
    let forfeit = false
    try {
      await loading.wrap(securityApi.deleteAccount({ ...proof, check: true }))
      if (!(await dialog({ message: t('security.deleteConfirm') }))) return
    } catch (e) {
      // credit or prizes would lapse: saying so is the confirmation, and it goes on only if the owner agrees
      if (!(e instanceof ApiError && (e.data as { reason?: string } | null)?.reason === 'forfeit')) { refused(e); return }
      if (!(await dialog({ message: `${e.message} ${t('security.deleteConfirm')}`, confirmText: t('security.deleteForfeitConfirm') }))) return
      forfeit = true
    }
    try {
      await loading.wrap(securityApi.deleteAccount({ ...proof, ...(forfeit ? { forfeit: true } : {}) }))
    } catch (e) { refused(e); return }
    sessionStore.clear()
    toast({ message: t('security.deleted'), level: 'success' })
    await Taro.reLaunch({ url: ENTRY_PAGE })
  }

  /** A problem beside its field (the form's own check first, then the server's). */
  const problem = (key: string, own?: string) => {
    const text = own ?? problems[key]
    return text ? <Text className={`security-error security-error-${key.replace('.', '-')}`}>{text}</Text> : null
  }
  return (
    <PageShell className='security-page'>
      <Section title={t('security.account')} className='security-account'>
        {bindRow('phone', data.phone)}
        {bindRow('email', data.email)}
        <View className='security-row'>
          <Text className='security-row__label'>{t('login.password')}</Text>
          <Text className='security-row__value'>{data.hasPassword ? t('security.passwordSet') : t('security.passwordNone')}</Text>
        </View>
        {!pwOpen && <View className='btn btn--ghost security-password-open' onClick={() => setPwOpen(true)}>{t(data.hasPassword ? 'security.password' : 'security.passwordFirst')}</View>}
        {pwOpen && (
          <View className='security-form password-form'>
            {data.hasPassword && <Input className={`security-input pw-current ${problems['pw.current'] ? 'security-input--error' : ''}`} password value={pw.current} placeholder={t('security.currentPassword')} onInput={e => { const v = e.detail.value; setPw(p => ({ ...p, current: v })); clearProblem('pw.current') }} />}
            {problem('pw.current')}
            {!data.hasPassword && canProve && <ReauthCode className='password-reauth' phone={data.phone} email={data.email} value={pwProof} onChange={v => { setPwProof(v); clearProblem('pw.proof') }} />}
            {problem('pw.proof')}
            {!canProve && <Text className='security-hint security-bind-first'>{t('security.reauthBindFirst')}</Text>}
            <Input className={`security-input pw-next ${problems['pw.next'] ? 'security-input--error' : ''}`} password value={pw.next} maxlength={LOGIN_LIMITS.passwordMax} placeholder={t('security.newPassword')} onInput={e => { const v = e.detail.value; setPw(p => ({ ...p, next: v })); clearProblem('pw.next') }} />
            {problem('pw.next')}
            <Input className={`security-input pw-again ${problems['pw.again'] ? 'security-input--error' : ''}`} password value={pw.again} maxlength={LOGIN_LIMITS.passwordMax} placeholder={t('security.newPasswordAgain')} onInput={e => { const v = e.detail.value; setPw(p => ({ ...p, again: v })); clearProblem('pw.again') }} />
            {problem('pw.again')}
            <Text className='security-hint'>{t('security.passwordHint')}</Text>
            <View className='security-actions'>
              <View className='btn btn--ghost' onClick={() => { setPwOpen(false); setPw({ current: '', next: '', again: '' }); showProblems('pw.', {}) }}>{t('feedback.cancel')}</View>
              <View className={`btn btn--primary password-save ${canProve ? '' : 'btn--disabled'}`} onClick={() => { if (canProve) void changePassword() }}>{t('security.passwordSave')}</View>
            </View>
          </View>
        )}
      </Section>

      <SessionsSection sessions={data.sessions} onChanged={load} />

      <Section title={t('security.limits')} className='security-limits'>
        <Text className='security-hint'>{t('security.limitsRule')}</Text>
        {limitRow('daily', data.limits.daily)}
        {limitRow('monthly', data.limits.monthly)}
        <View className='btn btn--primary limits-save' onClick={saveLimits}>{t('security.limitsSave')}</View>
      </Section>

      <AgeSection age={data.age} correction={data.correction} onChanged={load} />

      <Section title={t('security.deleteTitle')} className='security-delete'>
        <Text className='security-hint'>{t('security.deleteRule')}</Text>
        {canProve
          ? (
            <View className='security-form'>
              {data.hasPassword
                ? <Input className={`security-input delete-password ${problems['delete.proof'] ? 'security-input--error' : ''}`} password value={deletePw} placeholder={t('security.currentPassword')} onInput={e => { setDeletePw(e.detail.value); clearProblem('delete.proof') }} />
                : <ReauthCode className='delete-reauth' phone={data.phone} email={data.email} value={deleteProof} onChange={v => { setDeleteProof(v); clearProblem('delete.proof') }} />}
              {problem('delete.proof')}
              <View className='btn btn--ghost delete-account' onClick={() => { void deleteAccount() }}>{t('security.deleteButton')}</View>
            </View>
            )
          : <Text className='security-hint security-bind-first'>{t('security.reauthBindFirst')}</Text>}
      </Section>
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(SecurityPage))
