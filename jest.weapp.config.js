/** The compiled mini-program (dist/weapp) rendered in miniprogram-simulate. Build it first. */
module.exports = {
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/test/weapp'],
  testMatch: ['**/*.weapp.test.js'],
  transform: {}
}
