import { useEffect, useRef, useState } from 'react'
import Taro, { useLoad, useRouter } from '@tarojs/taro'
import { View, Text, Input, Button } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import { withPageError } from '@/components/PageError/wrap'
import type { LoginResult, LoginSettings } from '~types/accounts'
import PageShell from '@/components/PageShell'
import LangSwitch from '@/components/LangSwitch'
import GuestPreview from './GuestPreview'
import { REGISTER_BY, TABS, registerKinds, visibleTabs } from './modes'
import { accountApi } from '@/services/account'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { capabilitiesStore } from '@/stores/capabilities'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { CODE_MAX, CODE_RESEND_SECONDS, HOME_PAGE, PASSWORD_MAX, USERNAME_MAX } from '@/constants'
import { toast } from '@/utils/feedback'
import { useRemote } from '@/utils/useRemote'
import { agreementLink, navigate } from '@/utils/navigation'
import { takeReturn } from '@/utils/loginReturn'
import { useCountdown } from '@/utils/useCountdown'
import { forgetSilentLogin, inWeChatBrowser, mayLogInSilently } from '@/utils/wechatBrowser'
import { loadWechatOAuth } from './wechatOAuthApi'
import {
  accountKind, checkEmail, checkPhone, normalizePhone, PHONE_INPUT_MAX, PHONE_INPUT_TYPE, validateLogin,
  type FieldErrors, type FieldName, type LoginForm, type LoginMode
} from '@/utils/validation'
import './index.scss'

const EMPTY: LoginForm = { account: '', phone: '', email: '', password: '', code: '', agreed: false, registerBy: 'user_name' }

function LoginPage () {
  const [mode, setMode] = useState<LoginMode>('password')
  const [form, setForm] = useState<LoginForm>(EMPTY)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  // the visitor opened the list of series and odds (asked for only then: the page stays light)
  const [preview, setPreview] = useState(false)
  // GET /system/setting/login: which ways in this shop has (a method without its provider is off)
  // H5: WeChat sent the browser back here with a code and state (handled once, when the page opens)
  const { params } = useRouter()
  const oauthReturn = useRef(process.env.TARO_ENV === 'h5' && !!(params.code || params.state))
  // once, when the page opens; effects run after the render, so the functions declared below exist by then
  useEffect(() => {
    // eslint-disable-next-line react-hooks/immutability
    if (oauthReturn.current) void finishOAuth(params)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const settings: LoginSettings | null = useRemote(() => capabilitiesStore.refresh(), [], {
    onSuccess: s => {
      // inside WeChat, someone who logged in with WeChat here before comes back in without a tap
      if (process.env.TARO_ENV === 'h5' && s.wechat && !oauthReturn.current && !sessionStore.loggedIn && inWeChatBrowser() && mayLogInSilently()) {
        toast({ message: t('wechatLogin.silent'), level: 'loading' })
        loadWechatOAuth().then(oauth => oauth.startWechatOAuth('snsapi_base')).catch(e => {
          forgetSilentLogin()
          toast({ message: `${t('login.loginFailed')}: ${errorMessage(e)}` })
        })
      }
    }
  }).data ?? null
  const tabs = visibleTabs(settings)
  const kinds = registerKinds(settings)
  // after each render (no dependency list), when switchMode and set below exist
  /* eslint-disable react-hooks/immutability */
  useEffect(() => {
    if (mode !== 'register' && tabs.length && !tabs.includes(mode)) switchMode(tabs[0])
    if (mode === 'register' && settings && !settings.register) switchMode(tabs[0] ?? 'password')
    if (!kinds.includes(form.registerBy)) set('registerBy', 'user_name')
  })
  /* eslint-enable react-hooks/immutability */
  // each code target waits on its own: an SMS just sent does not hold back an e-mail code
  const countdowns = { phone: useCountdown(), email: useCountdown() }

  /** After a login: back to the page that asked for it (with its query), else home. */
  const proceed = () => Taro.reLaunch({ url: takeReturn() ?? HOME_PAGE })

  useLoad(() => {
    if (sessionStore.loggedIn && !oauthReturn.current) proceed().catch(() => undefined)
  })

  /** H5: WeChat came back with code and state (or without a code: refused). */
  const finishOAuth = async (query: Record<string, string | undefined>) => {
    // busy from the start: the flow's code may still be on its way (H5 fetches it now)
    setBusy(true)
    let scope: string | undefined
    try {
      const oauth = await loadWechatOAuth()
      const back = oauth.readOAuthReturn(query)
      if (process.env.TARO_ENV === 'h5') oauth.dropOAuthQuery()
      if (back.kind === 'mismatch') { toast({ message: t('wechatLogin.stateMismatch') }); return }
      if (back.kind === 'denied') { toast({ message: t('login.authDenied') }); return }
      if (back.kind !== 'code') return
      scope = back.scope
      sessionStore.login(await oauth.finishWechatOAuth(back.code, back.scope))
      toast({ message: t('login.success'), level: 'success' })
      await proceed()
    } catch (e) {
      // (the flow's code not arriving, offline, leaves the code and state in the address: a reload tries again)
      if (scope === 'snsapi_base') forgetSilentLogin()
      toast({ message: `${t('login.loginFailed')}: ${errorMessage(e)}` })
    } finally {
      setBusy(false)
    }
  }

  const set = (field: keyof LoginForm, value: string | boolean) => {
    setForm(f => ({ ...f, [field]: value }))
    setErrors(e => ({ ...e, [field]: undefined }))
  }

  const switchMode = (m: LoginMode) => {
    setMode(m)
    setErrors({})
  }

  /** Where a code goes in this mode: the phone (SMS) or the address (mail). */
  const codeTarget = (): 'phone' | 'email' | null => {
    if (mode === 'sms') return 'phone'
    if (mode === 'email') return 'email'
    if (mode === 'register' && form.registerBy !== 'user_name') return form.registerBy
    return null
  }

  const sendCode = async () => {
    const target = codeTarget()
    if (!target || countdowns[target].running || busy) return
    // a phone as its 11 digits ("+86 138 0000 0000" reads as 13800000000)
    const value = target === 'phone' ? normalizePhone(form.phone) ?? form.phone.trim() : form.email.trim()
    const bad = target === 'phone' ? checkPhone(value) : checkEmail(value)
    if (bad) {
      // shown under the field (a toast would cover it)
      setErrors(e => ({ ...e, [target]: bad }))
      return
    }
    try {
      if (target === 'phone') await accountApi.sendSmsCode(value)
      else await accountApi.sendMailCode({ phone: value })
      countdowns[target].start(CODE_RESEND_SECONDS)
      toast({ message: t('login.codeSent'), level: 'success' })
    } catch (e) {
      toast({ message: `${t('login.codeSendFailed')}: ${errorMessage(e)}` })
    }
  }

  const submit = async () => {
    if (busy) return
    const found = validateLogin(mode, form)
    setErrors(found)
    const first = Object.values(found)[0]
    // the problems show under their fields; a toast repeating one would cover them
    if (first) return
    setBusy(true)
    try {
      const result = await login()
      sessionStore.login(result)
      toast({ message: t('login.success'), level: 'success' })
      await proceed()
    } catch (e) {
      toast({ message: `${t(mode === 'register' ? 'login.registerFailed' : 'login.loginFailed')}: ${errorMessage(e)}` })
    } finally {
      setBusy(false)
    }
  }

  const login = (): Promise<LoginResult> => {
    const code = form.code.trim()
    switch (mode) {
      case 'sms': return accountApi.loginBySms({ phone: normalizePhone(form.phone) ?? form.phone.trim(), code })
      case 'email': return accountApi.loginByMail({ phone: form.email.trim(), code })
      case 'register': {
        const by = form.registerBy
        const id = by === 'user_name' ? form.account.trim() : by === 'phone' ? normalizePhone(form.phone) ?? form.phone.trim() : form[by].trim()
        return accountApi.register({ [by]: id, password: form.password, ...(by === 'user_name' ? {} : { code }) })
      }
      default: {
        const account = form.account.trim()
        return accountApi.loginByPassword({ [accountKind(account)]: account, password: form.password })
      }
    }
  }

  const loginByWechat = async () => {
    if (!form.agreed) {
      setErrors({ agreed: 'login.agreeRequired' })
      return
    }
    if (process.env.TARO_ENV === 'h5') {
      // the browser goes to WeChat and comes back here with a code (finishOAuth)
      if (busy) return
      setBusy(true)
      try {
        toast({ message: t('wechatLogin.redirecting'), level: 'loading' })
        await (await loadWechatOAuth()).startWechatOAuth('snsapi_userinfo')
      } catch (e) {
        toast({ message: `${t('login.loginFailed')}: ${errorMessage(e)}` })
        setBusy(false)
      }
      return
    }
    try {
      const { code } = await Taro.login()
      sessionStore.login(await accountApi.loginByWeapp(code))
      await proceed()
    } catch (e) {
      const denied = /deny|cancel/i.test(String((e as { errMsg?: string })?.errMsg ?? ''))
      toast({ message: denied ? t('login.authDenied') : `${t('login.loginFailed')}: ${errorMessage(e)}` })
    }
  }

  const field = (name: FieldName, label: MessageKey, input: JSX.Element, extra?: JSX.Element) => (
    <View className={`login-field login-field--${name} ${errors[name] ? 'login-field--error' : ''}`}>
      <Text className='login-field__label'>{t(label)}</Text>
      <View className='login-field__row'>
        {input}
        {extra}
      </View>
      {errors[name] && <Text className='login-field__error'>{t(errors[name]!)}</Text>}
    </View>
  )

  const target = codeTarget()
  const wait = target ? countdowns[target] : null
  const codeButton = (
    <View className={`login-code-btn ${wait?.running ? 'login-code-btn--wait' : ''}`} onClick={sendCode}>
      {wait?.running ? t('login.resendIn', { n: wait.left }) : t('login.sendCode')}
    </View>
  )
  const accountInput = (name: 'account', placeholder: MessageKey) => (
    <Input className='login-input input-account' value={form[name]} maxlength={USERNAME_MAX}
      placeholder={t(placeholder)} onInput={e => set(name, e.detail.value)} />
  )
  const phoneInput = <Input className='login-input input-phone' type={PHONE_INPUT_TYPE} value={form.phone} maxlength={PHONE_INPUT_MAX}
    placeholder={t('login.phonePlaceholder')} onInput={e => set('phone', e.detail.value)} />
  const emailInput = <Input className='login-input input-email' value={form.email} maxlength={254}
    placeholder={t('login.emailPlaceholder')} onInput={e => set('email', e.detail.value)} />
  const codeInput = <Input className='login-input input-code' type='number' value={form.code} maxlength={CODE_MAX}
    placeholder={t('login.codePlaceholder')} onInput={e => set('code', e.detail.value)} />
  const passwordInput = <Input className='login-input input-password' password value={form.password} maxlength={PASSWORD_MAX}
    placeholder={t('login.passwordPlaceholder')} onInput={e => set('password', e.detail.value)} />

  const registering = mode === 'register'
  /** Guest browsing: the shop without an account (home shows series; buying asks for a login then). */
  const browse = () => navigate(HOME_PAGE)
  return (
    <PageShell className='login-page' title={registering ? t('login.registerNavTitle') : undefined}>
      <View className='login-top'>
        <LangSwitch />
      </View>
      <View className='login-brand'>
        <View className='login-logo'>🎁</View>
        <Text className='login-title'>{registering ? t('login.registerTitle') : t('login.welcome')}</Text>
        <Text className='login-subtitle'>{t(registering ? 'login.registerSubtitle' : 'login.subtitle')}</Text>
      </View>

      {!registering && (
        <View className='login-guest'>
          <View className='login-guest__main'>
            <View className='login-guest__words'>
              <Text className='login-guest__title'>{t('login.guestTitle')}</Text>
              <Text className='login-guest__text'>{t('login.guestText')}</Text>
            </View>
            <View className='login-guest__browse' onClick={browse}>{t('login.guestBrowse')} ›</View>
          </View>
          <View className='login-guest__links'>
            <Text className={`login-guest__link guest-odds ${preview ? 'login-guest__link--on' : ''}`} onClick={() => setPreview(p => !p)}>
              {t('login.guestOdds')} {preview ? '▴' : '▾'}
            </Text>
            <Text className='login-guest__link guest-fairness' onClick={() => navigate(agreementLink('fairness'))}>{t('login.guestFairness')} ›</Text>
          </View>
          {preview && <GuestPreview onSeries={id => navigate(`/pages/blind_box_detail/index?seriesId=${id}`)} onAll={browse} />}
        </View>
      )}

      <View className='login-card'>
        {registering
          ? kinds.length > 1 && (
            <View className='login-tabs login-tabs--small'>
              {REGISTER_BY.filter(r => kinds.includes(r.kind)).map(r => (
                <View key={r.kind} className={`login-tab register-by-${r.kind} ${form.registerBy === r.kind ? 'login-tab--on' : ''}`}
                  onClick={() => { set('registerBy', r.kind); setErrors({}) }}>{t(r.label)}</View>
              ))}
            </View>
          )
          : (
            <View className='login-tabs'>
              {TABS.filter(tab => tabs.includes(tab.mode)).map(tab => (
                <View key={tab.mode} className={`login-tab tab-${tab.mode} ${mode === tab.mode ? 'login-tab--on' : ''}`}
                  onClick={() => switchMode(tab.mode)}>{t(tab.label)}</View>
              ))}
            </View>
            )}

        {mode === 'password' && field('account', 'login.account', accountInput('account', 'login.accountPlaceholder'))}
        {registering && form.registerBy === 'user_name' && field('account', 'login.username', accountInput('account', 'login.usernamePlaceholder'))}
        {(mode === 'sms' || (registering && form.registerBy === 'phone')) && field('phone', 'login.phone', phoneInput)}
        {(mode === 'email' || (registering && form.registerBy === 'email')) && field('email', 'login.email', emailInput)}
        {codeTarget() && field('code', 'login.code', codeInput, codeButton)}
        {(mode === 'password' || registering) && field('password', 'login.password', passwordInput)}

        <View className={`login-agree ${errors.agreed ? 'login-agree--error' : ''}`}>
          <View className={`login-check ${form.agreed ? 'login-check--on' : ''}`} onClick={() => set('agreed', !form.agreed)}>
            {form.agreed ? '✓' : ''}
          </View>
          <View className='login-agree__text'>
            <Text onClick={() => set('agreed', !form.agreed)}>{t('login.agreePrefix')}</Text>
            <Text className='login-link link-service' onClick={() => navigate(agreementLink('service'))}>{t('login.serviceAgreement')}</Text>
            <Text>{t('login.and')}</Text>
            <Text className='login-link link-privacy' onClick={() => navigate(agreementLink('privacy'))}>{t('login.privacyPolicy')}</Text>
          </View>
        </View>
        {errors.agreed && <Text className='login-field__error login-agree__error'>{t(errors.agreed)}</Text>}

        <Button className='login-submit' loading={busy} disabled={busy} onClick={submit}>
          {registering ? t('login.submitRegister') : t('login.submit')}
        </Button>

        {process.env.TARO_ENV === 'weapp' && !registering && settings?.weapp !== false && (
          <Button className='login-wechat' onClick={loginByWechat}>{t('login.wechat')}</Button>
        )}
        {process.env.TARO_ENV === 'h5' && !registering && settings?.wechat === true && (
          <Button className='login-wechat login-wechat--web' disabled={busy} onClick={loginByWechat}>{t('login.wechat')}</Button>
        )}

        {(registering || settings?.register !== false) && (
          <View className='login-switch' onClick={() => switchMode(registering ? tabs[0] ?? 'password' : 'register')}>
            {registering ? t('login.haveAccount') : t('login.noAccount')}
          </View>
        )}
      </View>
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(lightObserver(LoginPage))
