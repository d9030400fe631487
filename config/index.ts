import fs from 'node:fs'
import path from 'node:path'
import { defineConfig, type UserConfigExport } from '@tarojs/cli'
import TsconfigPathsPlugin from 'tsconfig-paths-webpack-plugin'
import devConfig from './dev'
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PrecompressPlugin } = require('../scripts/precompress.js') as { PrecompressPlugin: new () => unknown }
import prodConfig from './prod'

/**
 * TARO_APP_* variables from the shell are inlined like the ones from `.env` files
 * (Taro itself only reads the files). Values from `.env` files win over the shell.
 */
const APP_ENV_KEYS = [
  'TARO_APP_API_BASE', 'TARO_APP_ID', 'TARO_APP_TYPE', 'TARO_APP_ENV', 'TARO_APP_LOCALE',
  'TARO_APP_ERROR_REPORT', 'TARO_APP_ERROR_REPORT_URL'
]

/** Every variable src/config.ts reads is defined (empty when unset), so no `process` is left in the bundle. */
function shellEnv (): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of APP_ENV_KEYS) out[k] = JSON.stringify('')
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('TARO_APP_') && v !== undefined) out[k] = JSON.stringify(v)
  }
  return out
}

/** Writes webpack's module and chunk statistics for bundle-size work. */
class StatsJsonPlugin {
  apply (compiler: { hooks: { done: { tap: (name: string, fn: (stats: { toJson: (o: object) => unknown }) => void) => void } } }) {
    compiler.hooks.done.tap('stats-json', stats => {
      const out = path.resolve(__dirname, '..', 'dist', 'h5-stats.json')
      fs.writeFileSync(out, JSON.stringify(stats.toJson({ all: false, modules: true, chunks: true, chunkModules: false, assets: true, ids: true, chunkRelations: true })))
    })
  }
}

// H5 root font size is 3.5% of the window width (spec 9; see src/index.html). With a 750 px design
// on a 375 px phone that root is 13.125 px, so pxtransform divides by 2 * 13.125.
const H5_BASE_FONT_SIZE = 375 * 0.035

export default defineConfig<'webpack5'>(async (merge) => {
  // the mini-program has no browser: a window/document/TextDecoder… outside a platform guard fails the build
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (process.env.TARO_ENV === 'weapp') require('../scripts/check-weapp-globals.js').assertWeappSafe()
  const baseConfig: UserConfigExport<'webpack5'> = {
    projectName: 'blindbox-shop',
    date: '2026-11-22',
    designWidth: 750,
    deviceRatio: { 640: 2.34 / 2, 750: 1, 375: 2, 828: 1.81 / 2 },
    sourceRoot: 'src',
    outputRoot: `dist/${process.env.TARO_ENV}`,
    plugins: [],
    env: shellEnv(),
    defineConstants: {},
    alias: {
      '@': path.resolve(__dirname, '..', 'src'),
      '~types': path.resolve(__dirname, '..', 'types')
    },
    // the H5 app's icons at the site root (drawn by scripts/make-favicon.js)
    copy: {
      patterns: process.env.TARO_ENV === 'h5'
        ? ['favicon.ico', 'favicon.svg'].map(name => ({ from: `src/static/${name}`, to: `dist/h5/${name}` }))
        : [],
      options: {}
    },
    framework: 'react',
    compiler: { type: 'webpack5', prebundle: { enable: false } },
    cache: { enable: false },
    mini: {
      // types/ holds constants of the shared contract too (types/shop.ts): compile it like src/
      compile: { include: [path.resolve(__dirname, '..', 'types')] },
      postcss: {
        pxtransform: { enable: true, config: {} },
        cssModules: { enable: false, config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' } }
      },
      webpackChain (chain) {
        chain.resolve.plugin('tsconfig-paths').use(TsconfigPathsPlugin)
      }
    },
    h5: {
      // React implementations of the H5 components instead of the Stencil web components: about
      // 300 KB less JavaScript before first render (see bench/h5-size.js and the issue notes).
      useHtmlComponents: true,
      compile: { include: [path.resolve(__dirname, '..', 'types')] },
      publicPath: '/',
      staticDirectory: 'static',
      // History mode with base '/' (spec 2). Taro's default basename is '/'; setting basename: '/'
      // explicitly makes its router match no page at all (blank screen), so it is left unset.
      router: { mode: 'browser' },
      output: {
        filename: 'js/[name].[contenthash:8].js',
        chunkFilename: 'js/[name].[contenthash:8].js'
      },
      miniCssExtractPluginOption: {
        ignoreOrder: true,
        filename: 'css/[name].[contenthash:8].css',
        chunkFilename: 'css/[name].[contenthash:8].css'
      },
      postcss: {
        pxtransform: { enable: true, config: { baseFontSize: H5_BASE_FONT_SIZE } },
        autoprefixer: { enable: true, config: {} },
        cssModules: { enable: false, config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' } }
      },
      webpackChain (chain) {
        chain.resolve.plugin('tsconfig-paths').use(TsconfigPathsPlugin)
        // a small stand-in for the user-agent parser Taro's H5 APIs import (see the file)
        chain.resolve.alias.set('platform$', path.resolve(__dirname, '..', 'src', 'shims', 'platform.js'))
        // polyfills the target browsers do not need, and JSONP the app never uses (see the files)
        chain.resolve.alias.set('whatwg-fetch$', path.resolve(__dirname, '..', 'src', 'shims', 'empty.js'))
        chain.resolve.alias.set('abortcontroller-polyfill/dist/abortcontroller-polyfill-only$', path.resolve(__dirname, '..', 'src', 'shims', 'empty.js'))
        chain.resolve.alias.set('jsonp-retry$', path.resolve(__dirname, '..', 'src', 'shims', 'jsonp.js'))
        // ANALYZE=1 writes dist/h5-stats.json (module sizes per chunk) for bench/h5-modules.js
        if (process.env.ANALYZE === '1') chain.plugin('stats-json').use(StatsJsonPlugin)
        // brotli and gzip copies of every text file, served by Accept-Encoding (scripts/precompress.js)
        chain.plugin('precompress').use(PrecompressPlugin)
        // Taro's button spinner is an image on a third-party host: use our own, inlined (see the loader)
        chain.module.rule('local-spinner').test(/\.s?css$/).enforce('pre')
          .include.add(path.resolve(__dirname, '..', 'node_modules', '@tarojs', 'components-react')).end()
          .use('local-spinner').loader(path.resolve(__dirname, '..', 'scripts', 'webpack', 'local-spinner-loader.js'))
      },
      devServer: {
        host: '127.0.0.1',
        port: 10086,
        proxy: [{ context: ['/dev-api'], target: process.env.API_PROXY_TARGET || 'http://127.0.0.1:3000', changeOrigin: true }]
      }
    }
  }
  if (process.env.NODE_ENV === 'development') {
    return merge({}, baseConfig, devConfig)
  }
  return merge({}, baseConfig, prodConfig)
})
