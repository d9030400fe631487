import { type PropsWithChildren } from 'react'
import { useLaunch } from '@tarojs/taro'
import { installInterceptors } from '@/services/request'
import { installErrorReporting } from '@/utils/errorReport'
import { sessionStore } from '@/stores/session'
import './app.scss'

installInterceptors()
installErrorReporting()

function App ({ children }: PropsWithChildren) {
  useLaunch(() => {
    // A stored token restores the session (issue 3 wires the server).
    void sessionStore.restore()
  })
  return children
}

export default App
