import type { UserConfigExport } from '@tarojs/cli'

export default {
  mini: {},
  h5: {
    // Keep the H5 entry small: no source maps shipped, vendor code split by Taro's defaults. An
    // ANALYZE=1 build writes them (not referenced by the scripts) for bench/h5-chunks.js to weigh
    // each package's minified code.
    enableSourceMap: process.env.ANALYZE === '1',
    sourceMapType: 'hidden-source-map'
  }
} satisfies UserConfigExport<'webpack5'>
