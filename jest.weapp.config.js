/** The compiled mini-program (dist/weapp) rendered in miniprogram-simulate. Build it first. */
module.exports = {
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/test/weapp'],
  testMatch: ['**/*.weapp.test.js'],
  transform: {},
  // a page's first render against the real server is slow on a busy 2-core machine (seen: over 5 s once)
  testTimeout: 30000,
  // the compiled server the suites start (test/weapp/shop.js)
  globalSetup: '<rootDir>/test/weapp/global-setup.js'
}
