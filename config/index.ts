import fs from 'node:fs'
import path from 'node:path'
import { defineConfig, type UserConfigExport } from '@tarojs/cli'
import { dotenvParse } from '@tarojs/helper'
import TsconfigPathsPlugin from 'tsconfig-paths-webpack-plugin'
import devConfig from './dev'
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PrecompressPlugin } = require('../scripts/precompress.js') as { PrecompressPlugin: new () => unknown }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PrerenderPlugin } = require('../scripts/prerender.js') as { PrerenderPlugin: new () => unknown }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { weappApiBase } = require('../scripts/weapp-api-base.js') as { weappApiBase: (o: { base?: string, production: boolean }) => string }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { StagedBootPlugin } = require('../scripts/webpack/staged-boot.js') as { StagedBootPlugin: new (o: { prewarm: string[], beforeApp: string[] }) => unknown }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OWN_CHUNK: OWN_STYLE_COMPONENTS } = require('../scripts/webpack/unused-taro-styles-loader.js') as { OWN_CHUNK: Record<string, string> }
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
  // the mini-program gets an absolute API base (WeChat takes no relative URL), https in production:
  // a production build without one stops here (scripts/weapp-api-base.js)
  if (process.env.TARO_ENV === 'weapp') {
    // Taro puts the `.env*` files' value over this one afterwards: that is the one to check then
    const fromFiles = dotenvParse(path.resolve(__dirname, '..'), ['TARO_APP_'], process.env.NODE_ENV).TARO_APP_API_BASE
    try {
      out.TARO_APP_API_BASE = JSON.stringify(weappApiBase({ base: fromFiles ?? process.env.TARO_APP_API_BASE, production: process.env.NODE_ENV === 'production' }))
    } catch (e) {
      // the reason alone (thrown, Taro would add that it found no config file)
      console.error(`\n${(e as Error).message}\n`)
      process.exit(1)
    }
  }
  return out
}

/** Writes webpack's module and chunk statistics for bundle-size work. */
class StatsJsonPlugin {
  constructor (private readonly file = 'h5-stats.json') {}
  apply (compiler: { hooks: { done: { tap: (name: string, fn: (stats: { toJson: (o: object) => unknown }) => void) => void } } }) {
    compiler.hooks.done.tap('stats-json', stats => {
      const out = path.resolve(__dirname, '..', 'dist', this.file)
      fs.writeFileSync(out, JSON.stringify(stats.toJson({ all: false, modules: true, nestedModules: true, chunks: true, chunkModules: false, chunkOrigins: true, assets: true, ids: true, chunkRelations: true, reasons: true })))
    })
  }
}

// H5 root font size is 3.5% of the window width (spec 9; see src/index.html). With a 750 px design
// on a 375 px phone that root is 13.125 px, so pxtransform divides by 2 * 13.125.
const H5_BASE_FONT_SIZE = 375 * 0.035
/** Code used by at least this many of the 16 pages is loaded once, with the first page that needs it (see splitChunks). */
const H5_PAGES_COMMON_MIN = 6
/**
 * Plain libraries of the app's start, each evaluated in a step of its own before Taro's imports
 * (scripts/webpack/staged-boot.js): without this they run inside the step of whichever import needs
 * them first (most inside @tarojs/taro's), making that step a long task.
 */
const BOOT_PREWARM = ['react', 'react-dom', 'history', 'universal-router']
/**
 * The heavier modules of the app's own start, each in a step of its own right before src/app.tsx
 * (which imports them): the language store with its first dictionaries, then the request client and
 * the session store. Together with the app they were one step of 50-120 ms at 4x slowdown.
 */
const BOOT_BEFORE_APP = ['@/stores/locale', '@/services/request', '@/stores/session']
/** The pages a visit usually starts on (prerendered too): what each shares with other pages comes with it. */
const LOGIN_PAGE = /[\\/]src[\\/]pages[\\/]login[\\/]index\.tsx$/
const HOME_PAGE = /[\\/]src[\\/]pagesA[\\/]home[\\/]index\.tsx$/
interface WebpackModule { resource?: string }
interface WebpackChunkGraph {
  getModuleChunksIterable: (m: WebpackModule) => Iterable<unknown>
  getChunkModulesIterable: (c: unknown) => Iterable<WebpackModule>
}
const pageChunks = new WeakMap<object, 'login' | 'home' | null>()
/** Which first page a chunk holds (login, home), if any. */
function firstPageOf (chunk: unknown, chunkGraph: WebpackChunkGraph): 'login' | 'home' | null {
  const key = chunk as object
  if (!pageChunks.has(key)) {
    const modules = [...chunkGraph.getChunkModulesIterable(chunk)]
    pageChunks.set(key, modules.some(m => !!m.resource && HOME_PAGE.test(m.resource)) ? 'home' : modules.some(m => !!m.resource && LOGIN_PAGE.test(m.resource)) ? 'login' : null)
  }
  return pageChunks.get(key)!
}
/** Whether a module is in the chunk of this first page and in some other chunk too. */
function sharedWith (page: 'login' | 'home') {
  return (module: WebpackModule, { chunkGraph }: { chunkGraph: WebpackChunkGraph }) => {
    const chunks = [...chunkGraph.getModuleChunksIterable(module)]
    return chunks.length >= 2 && chunks.some(c => firstPageOf(c, chunkGraph) === page)
  }
}

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
    // WeChat's aria-* attributes through Taro's mini-program templates (config/aria-plugin.js)
    plugins: [path.resolve(__dirname, 'aria-plugin.js')],
    env: shellEnv(),
    defineConstants: {},
    alias: {
      '@': path.resolve(__dirname, '..', 'src'),
      '~types': path.resolve(__dirname, '..', 'types')
    },
    // the H5 app's icons at the site root (drawn by scripts/make-favicon.js)
    copy: {
      patterns: [
        ...(process.env.TARO_ENV === 'h5'
          ? ['favicon.ico', 'favicon.svg'].map(name => ({ from: `src/static/${name}`, to: `dist/h5/${name}` }))
          : []),
        // the map's marker icons (WeChat's map takes a package path for iconPath; H5 serves the same files)
        { from: 'src/static/map', to: `dist/${process.env.TARO_ENV}/static/map` }
      ],
      options: {}
    },
    // React on both builds: React DOM on H5, Taro's own reconciler in the mini-program
    framework: 'react',
    compiler: { type: 'webpack5', prebundle: { enable: false } },
    // H5: Taro's terser defaults keep every function's name and quote every object key; nothing here
    // reads a function's name, so the scripts go out without them (and with two compress passes)
    ...(process.env.TARO_ENV === 'h5'
      ? { terser: { enable: true, config: { keep_fnames: false, compress: { passes: 2 }, output: { quote_keys: false, keep_quoted_props: false } } } }
      : {}),
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
        // ANALYZE=1 writes dist/weapp-stats.json (module sizes per chunk, for the main package's budget)
        if (process.env.ANALYZE === '1') chain.plugin('stats-json').use(StatsJsonPlugin, ['weapp-stats.json'])
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
        // Taro's router libraries, for the few calls it makes of them: about 4 KB brotli less before the
        // first render (see the files; test/unit/router-shims.test.ts holds them to the libraries' answers)
        chain.resolve.alias.set('query-string$', path.resolve(__dirname, '..', 'src', 'shims', 'query-string.js'))
        chain.resolve.alias.set('universal-router$', path.resolve(__dirname, '..', 'src', 'shims', 'universal-router.js'))
        // mobx-react-lite's fallback for React before 18: React 18 has the hook itself (see the file)
        chain.resolve.alias.set('use-sync-external-store/shim$', path.resolve(__dirname, '..', 'src', 'shims', 'use-sync-external-store.js'))
        // Taro's own style sheets (its components') go into the entry's CSS file in production, as the
        // app's do, instead of into the scripts with style-loader's code to insert them at the page's top:
        // about 3 KB brotli less before the first page, and the prerender inlines the file in the documents.
        // src/taro-styles.h5.ts keeps them ahead of the app's rules. Development keeps Taro's style-loader.
        if (process.env.NODE_ENV === 'production') {
          chain.module.rule('taroStyle').uses.clear()
          chain.module.rule('taroStyle').use('extract').loader(require('mini-css-extract-plugin').loader) // eslint-disable-line @typescript-eslint/no-require-imports
        }
        // Page chunks share code instead of repeating it (Taro splits only the entry's chunks): what a first
        // page (login, home) shares with any other page comes with that page, what most pages use in one
        // chunk of its own, the rest of what two or more pages share in chunks by the set of pages that
        // share it. Measured by bench/h5-chunks.js.
        chain.optimization.merge({
          splitChunks: {
            cacheGroups: {
              // React DOM in a script of its own: evaluating it and the rest of the entry in one script
              // took 15-19 ms at 1x on the AMD EPYC machine (a long task at Lighthouse's 4x slowdown); as
              // two scripts each is a task of its own (the loader runs them in order, scripts/prerender.js)
              reactDom: {
                chunks: 'initial',
                name: 'react-dom',
                test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/,
                priority: 40,
                enforce: true
              },
              // Taro's toast, modal and action sheet stay in the chunk the app fetches when it first needs
              // them (src/utils/feedbackApi.h5.ts), also where pages use them through Taro (clipboard, media picker)
              feedbackUi: {
                chunks: 'async',
                name: 'feedback-ui',
                test: /[\\/]@tarojs[\\/]taro-h5[\\/]dist[\\/]api[\\/]ui[\\/]interaction[\\/]|[\\/]src[\\/]utils[\\/]taroFeedback\.ts$/,
                priority: 30,
                enforce: true
              },
              // MobX and its bindings come with the first page that uses them, not with login or home, whose
              // stores and components follow Signals instead (src/stores/signal.ts): 16 KB brotli less first
              mobx: {
                chunks: 'async',
                name: 'mobx',
                test: /[\\/]node_modules[\\/](mobx|mobx-react-lite)[\\/]|[\\/]src[\\/]stores[\\/]mobx\.ts$/,
                priority: 25,
                enforce: true
              },
              // what home shares with other pages comes with home (which then loads only shared code it runs),
              // and what login shares (and home does not) with login
              homeCommon: { chunks: 'async', name: 'pages-common', priority: 22, enforce: true, test: sharedWith('home') },
              loginCommon: { chunks: 'async', name: 'login-common', priority: 21, enforce: true, test: sharedWith('login') },
              // what most pages use and neither first page does, loaded once with the first of them
              pagesCommon: {
                chunks: 'async',
                name: 'pages-more',
                priority: 20,
                enforce: true,
                test: (module: WebpackModule, { chunkGraph }: { chunkGraph: WebpackChunkGraph }) =>
                  [...chunkGraph.getModuleChunksIterable(module)].length >= H5_PAGES_COMMON_MIN
              },
              pagesShared: { chunks: 'async', minChunks: 2, minSize: 0, priority: 10, reuseExistingChunk: true }
            }
          }
        })
        // the pages other than login and home wait for the rest of the dictionary with a top-level await
        // (src/locales/full.h5.ts); the targets (package.json browserslist: Chrome 69, iOS 12) all run
        // async functions, which webpack's own runtime code for it uses
        chain.output.merge({ environment: { asyncFunction: true } })
        // ANALYZE=1 writes dist/h5-stats.json (module sizes per chunk) for bench/h5-chunks.js
        if (process.env.ANALYZE === '1') chain.plugin('stats-json').use(StatsJsonPlugin)
        // the app's start as several short tasks instead of one long one (see the file)
        if (process.env.STAGED_BOOT !== '0') chain.plugin('staged-boot').use(StagedBootPlugin, [{ prewarm: BOOT_PREWARM, beforeApp: BOOT_BEFORE_APP }])
        // brotli and gzip copies of every text file, served by Accept-Encoding (scripts/precompress.js)
        chain.plugin('precompress').use(PrecompressPlugin)
        // the login page and home's skeleton rendered into their documents (scripts/prerender.js): production
        // builds only, not watch rebuilds; PRERENDER=0 skips it
        if (process.env.NODE_ENV === 'production' && !process.argv.includes('--watch') && process.env.PRERENDER !== '0') {
          chain.plugin('prerender').use(PrerenderPlugin)
        }
        // Taro's button spinner is an image on a third-party host: use our own, inlined (see the loader)
        chain.module.rule('local-spinner').test(/\.s?css$/).enforce('pre')
          .include.add(path.dirname(require.resolve('@tarojs/components-react/package.json'))).end()
          .use('local-spinner').loader(path.resolve(__dirname, '..', 'scripts', 'webpack', 'local-spinner-loader.js'))
        // the style sheets Taro's entry injects lose the components the app does not use (Icon, Checkbox,
        // Radio) and WeUI's icon font inlined in them (see the loader)
        chain.module.rule('unused-taro-styles').enforce('pre')
          .test([
            path.join(path.dirname(require.resolve('@tarojs/components/package.json')), 'dist', 'taro-components', 'taro-components.css'),
            path.join(path.dirname(require.resolve('@tarojs/components-react/package.json')), 'dist', 'index.css')
          ])
          .use('unused-taro-styles').loader(path.resolve(__dirname, '..', 'scripts', 'webpack', 'unused-taro-styles-loader.js'))
        // ...and the picker's styles come with the picker, in the chunk of the pages that use it, not in the
        // entry's sheet that every first page's document carries (see both loaders)
        chain.module.rule('component-styles')
          .test(new RegExp(`[\\\\/]@tarojs[\\\\/]components-react[\\\\/]dist[\\\\/]components[\\\\/](${Object.keys(OWN_STYLE_COMPONENTS).join('|')})[\\\\/]style[\\\\/]index\\.scss\\.js$`))
          .use('component-styles').loader(path.resolve(__dirname, '..', 'scripts', 'webpack', 'component-styles-loader.js'))
      },
      devServer: {
        // React Fast Refresh in development (babel-preset-taro's hot, Taro's react-refresh plugin)
        hot: true,
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
