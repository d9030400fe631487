// first: the agreements' texts (H5: the rest of the dictionary, src/locales/documents.h5.ts; the
// mini-program: only these texts, the rest being in the subpackage, src/locales/documents.weapp.ts)
import '@/locales/documents'
import { Text, WebView } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import { t } from '@/stores/locale'
import { isValidExternal, type AgreementKind } from '@/utils/navigation'
import './index.scss'

const DOCS: Record<AgreementKind, () => { title: string; body: string }> = {
  service: () => ({ title: t('agreements.serviceTitle'), body: t('agreements.serviceBody') }),
  privacy: () => ({ title: t('agreements.privacyTitle'), body: t('agreements.privacyBody') }),
  fairness: () => ({ title: t('agreements.fairnessTitle'), body: t('agreements.fairnessBody') })
}

const hostOf = (url: string) => /^https?:\/\/([^/?#:]+)/i.exec(url)?.[1] ?? ''

/** Web view: ?url= an http(s) page, or ?doc=service|privacy for the shop's own agreements. */
function WebViewPage () {
  const { params } = useRouter()
  const doc = params.doc as AgreementKind | undefined
  const url = params.url ? decodeURIComponent(params.url) : ''

  if (doc && doc in DOCS) {
    const { title, body } = DOCS[doc]()
    return (
      <PageShell className='web-view-page' title={title}>
        <Section title={title} className='agreement'>
          {body.split('\n').map((line, i) => <Text key={i} className='agreement__line'>{line}</Text>)}
        </Section>
      </PageShell>
    )
  }
  if (!url) {
    return <PageShell><EmptyState icon='🔗' text={t('webView.missingUrl')} /></PageShell>
  }
  if (!isValidExternal(url)) {
    return <PageShell><EmptyState icon='⚠️' text={t('nav.invalidLink')} /></PageShell>
  }
  return (
    // the page's own name when the link gives one (?title=), else the site's; the mini-program shows the page's <title> itself
    <PageShell className='web-view-full' title={params.title ? decodeURIComponent(params.title) : hostOf(url)}>
      <WebView src={url} />
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(WebViewPage))
