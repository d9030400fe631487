import { Component, type ErrorInfo, type ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import PageShell from '@/components/PageShell'
import { t } from '@/stores/locale'
import { reportError } from '@/utils/errorReport'
import { goBack, reloadPage } from '@/utils/navigation'
import './index.scss'

interface State { failed: boolean }

/**
 * A page that fails while rendering shows what the shopper can do instead of a blank screen: load the
 * page again (reloadPage: the same route and query) or go back (goBack: the previous page, or the
 * entry page when there is none). The error is logged and reported like any uncaught error. Every
 * page is wrapped in it (./wrap.ts withPageError), on both builds.
 */
export default class PageError extends Component<{ children?: ReactNode }, State> {
  state: State = { failed: false }

  static getDerivedStateFromError (): State {
    return { failed: true }
  }

  componentDidCatch (error: Error, info: ErrorInfo): void {
    void reportError(Object.assign(error, { componentStack: info.componentStack }), 'error')
  }

  render (): ReactNode {
    if (!this.state.failed) return this.props.children
    return (
      <PageShell>
        <View className='page-error'>
          <Text className='page-error__icon' aria-hidden>⚠️</Text>
          <Text className='page-error__text'>{t('nav.pageFailed')}</Text>
          <View className='page-error__actions'>
            <View className='btn btn--primary page-error__reload' onClick={() => { void reloadPage() }}>{t('nav.reload')}</View>
            <View className='btn btn--ghost page-error__back' onClick={goBack}>{t('nav.back')}</View>
          </View>
        </View>
      </PageShell>
    )
  }
}
