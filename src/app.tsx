// first: Taro's component styles, so that the app's own override them (see the file)
import './taro-styles'
import { type PropsWithChildren } from 'react'
import { useLaunch } from '@tarojs/taro'
import { installInterceptors } from '@/services/request'
import { installErrorReporting } from '@/utils/errorReport'
import { installPrivacyListener } from '@/utils/privacy'
import { sessionStore } from '@/stores/session'
import { inFlightPurchases, resolveInFlight } from '@/services/purchaseInFlight'
import { installAriaAttributes } from '@/utils/aria'
import './app.scss'

// WeChat's aria-* attributes reach its templates (config/aria-plugin.js does the build's half)
installAriaAttributes()
installInterceptors()
installErrorReporting()
// the mini-program's answer to WeChat's privacy check, once for the whole app (components/PrivacyPrompt)
installPrivacyListener()

function App ({ children }: PropsWithChildren) {
  useLaunch(() => {
    // A stored token restores the session (issue 3 wires the server); then a purchase left unanswered
    // (a reload or a restart while it was on its way) is replayed with its key and its outcome told
    void sessionStore.restore().then(ok => { if (ok && inFlightPurchases().length) void resolveInFlight() })
  })
  return children
}

export default App
