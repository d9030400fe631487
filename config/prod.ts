import type { UserConfigExport } from '@tarojs/cli'

export default {
  mini: {},
  h5: {
    // Keep the H5 entry small: no source maps shipped, vendor code split by Taro's defaults.
    enableSourceMap: false
  }
} satisfies UserConfigExport<'webpack5'>
