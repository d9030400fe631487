/** Unit and component tests: jsdom, @tarojs/taro -> the H5 implementation (see test/setup). */
const esmPkgs = [
  '@tarojs', '@stencil', 'lodash-es', 'query-string', 'decode-uri-component', 'filter-obj',
  'split-on-first', 'swiper', 'ssr-window', 'dom7', 'is-mobile', 'nanoid', '\\.pnpm', 'style-inject', 'tslib',
  // the contract's schemas (a test checks the recipe form against them)
  'typebox'
].join('|')

const { bundledPackages } = require('./test/support/package-bundles')
const bundled = bundledPackages(['typebox', 'aria-query'])

module.exports = {
  testEnvironment: 'jsdom',
  testEnvironmentOptions: { url: 'http://localhost/' },
  roots: ['<rootDir>/test/unit'],
  testMatch: ['**/*.test.[jt]s?(x)'],
  setupFiles: ['<rootDir>/test/setup/env.js'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/after-env.js'],
  // npm test runs this beside the server tests and the e2e on two processors: a file's first dynamic
  // import of a page can take over Jest's default 5 s there (errorReport.test.ts took 5.3 s). Waiting
  // longer changes no outcome: a test that fails still fails, later.
  testTimeout: 20000,
  transform: { '^.+\\.(mjs|[jt]sx?)$': 'babel-jest' },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPkgs})/)`],
  moduleNameMapper: {
    // typebox and aria-query (the role tables under @testing-library/dom) as one file each, not 830
    // modules loaded again by every test file (test/support/package-bundles.js)
    ...bundled,
    '^@tarojs/taro$': '<rootDir>/test/setup/taro-h5-shim.js',
    // Stencil-backed wrappers: @tarojs/components-react (what the H5 build uses) imports itself
    // through '@tarojs/components', a cycle Jest's CommonJS modules cannot resolve.
    '^@tarojs/components$': '@tarojs/components/lib/react',
    '\\.(css|scss|sass|less)$': '<rootDir>/test/setup/style-mock.js',
    '\\.(wav|mp3|png|jpe?g|gif|webp|svg)$': '<rootDir>/test/setup/file-mock.js',
    '^@/(.*)$': '<rootDir>/src/$1',
    '^~types/(.*)$': '<rootDir>/types/$1'
  },
  globals: {
    ENABLE_INNER_HTML: true, ENABLE_ADJACENT_HTML: true, ENABLE_SIZE_APIS: true,
    ENABLE_TEMPLATE_CONTENT: true, ENABLE_MUTATION_OBSERVER: true, ENABLE_CLONE_NODE: true,
    ENABLE_CONTAINS: true, DEPRECATED_ADAPTER_COMPONENT: false, __TARO_FRAMEWORK__: 'react'
  }
}
