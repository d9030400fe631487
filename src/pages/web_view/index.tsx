// first: the agreements' texts (H5: the rest of the dictionary, src/locales/documents.h5.ts; the
// mini-program: only these texts, the rest being in the subpackage, src/locales/documents.weapp.ts)
import '@/locales/documents'
import { Text, View, WebView } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import { capabilitiesStore } from '@/stores/capabilities'
import { t } from '@/stores/locale'
import { webDomainsKnown, webHostOf, webViewAllows } from '@/stores/webDomains'
import { isValidExternal, type AgreementKind } from '@/utils/navigation'
import { useRemote } from '@/utils/useRemote'
import './index.scss'

const DOCS: Record<AgreementKind, () => { title: string; body: string }> = {
  service: () => ({ title: t('agreements.serviceTitle'), body: t('agreements.serviceBody') }),
  privacy: () => ({ title: t('agreements.privacyTitle'), body: t('agreements.privacyBody') }),
  fairness: () => ({ title: t('agreements.fairnessTitle'), body: t('agreements.fairnessBody') })
}

/** A query value as the page reads it: decoded once more when it still is (a broken escape stays as written). */
function decoded (value: string): string {
  try { return decodeURIComponent(value) } catch { return value }
}

/** The link's own name for the page (?title=): one line, short; shown only beside the page's host. */
const TITLE_MAX = 16
function ownTitle (raw: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const text = raw ? decoded(raw).replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g, '').trim() : ''
  return text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX)}…` : text
}

/**
 * Web view: ?doc=service|privacy|fairness for the shop's own documents, or ?url= an http(s) page of the
 * shop: its own origin (H5) or one of its business domains (issue 48 item 4; the operator's list, in
 * the public settings). Any other page is refused with a warning and its link's ?title= is not shown;
 * an allowed page is titled with its host (and the link's title beside it), so the shopper always sees
 * whose page it is (H5: also in a bar above the page).
 */
function WebViewPage () {
  const { params } = useRouter()
  const doc = params.doc as AgreementKind | undefined
  const url = params.url ? decoded(params.url) : ''
  // the list arrives with the public settings (asked once, through the one loading hook; a failure
  // leaves only the shop's own origin)
  const settings = useRemote(() => capabilitiesStore.ensure(), [], { enabled: !!url && !webDomainsKnown() })
  const asked = settings.data !== undefined || settings.failed

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
  if (!asked && !webDomainsKnown()) {
    return <PageShell><Text className='web-view-wait'>{t('feedback.loading')}</Text></PageShell>
  }
  if (!webViewAllows(url)) {
    return <PageShell className='web-view-refused'><EmptyState icon='⚠️' text={t('webView.notAllowed')} /></PageShell>
  }
  const host = webHostOf(url)
  const title = ownTitle(params.title)
  return (
    // the mini-program shows the page's own <title> in its bar; H5 shows the host above the page
    <PageShell className='web-view-full' title={title ? `${title} · ${host}` : host}>
      {process.env.TARO_ENV === 'h5' && (
        <View className='web-view-host'>
          <Text className='web-view-host__lock' aria-hidden>🔒</Text>
          <Text className='web-view-host__name'>{host}</Text>
        </View>
      )}
      <WebView src={url} />
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(WebViewPage))
