// In Jest, `@tarojs/taro` resolves here: the H5 API implementation, plus the React page hooks that
// the H5 webpack build would normally merge into the same object.
import h5Default from '@tarojs/taro-h5'
import * as h5Named from '@tarojs/taro-h5'
import * as runtime from '@tarojs/plugin-framework-react/dist/runtime'

const HOOKS = ['useLoad', 'useReady', 'useDidShow', 'useDidHide', 'useUnload', 'useRouter', 'useLaunch',
  'usePullDownRefresh', 'useReachBottom', 'usePageScroll', 'useShareAppMessage', 'useShareTimeline']

const Taro = Object.assign(h5Default, h5Named)
for (const name of HOOKS) Taro[name] = runtime[name]

export * from '@tarojs/taro-h5'
export const {
  useLoad, useReady, useDidShow, useDidHide, useUnload, useRouter, useLaunch,
  usePullDownRefresh, useReachBottom, usePageScroll, useShareAppMessage, useShareTimeline
} = runtime
export default Taro
