// Server tests (test/server): Node environment, babel-jest strips the TypeScript. The same suites run
// on SQLite and on a real PostgreSQL that test/server/pg.js starts (PG_TESTS=off: SQLite only).

// The server's own Babel setup, not the app's (babel.config.js is Taro's preset for phones of 2018,
// which turns classes, optional chaining and async code into helpers): the TypeScript stripped as
// esbuild strips it for `npm start` (class fields kept: tsconfig's ES2022 defines them) and the
// modules made CommonJS for Jest, nothing else. The code under test runs as Node runs it in production,
// and a fresh clone transforms it several times faster.
const serverBabel = {
  configFile: false,
  babelrc: false,
  presets: [['@babel/preset-typescript', { allowDeclareFields: true }]],
  plugins: ['@babel/plugin-transform-export-namespace-from', '@babel/plugin-transform-dynamic-import', '@babel/plugin-transform-modules-commonjs']
}

const { bundledPackages } = require('./test/support/package-bundles')

module.exports = {
  rootDir: __dirname,
  displayName: 'server',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/server/**/*.test.ts'],
  transform: { '^.+\\.(c|m)?(t|j)sx?$': ['babel-jest', serverBabel] },
  // typebox 1.x and cookie 2.x (light-my-request) ship ES modules only: let babel turn them into CommonJS for Jest
  transformIgnorePatterns: ['/node_modules/(?!(typebox|@fastify/type-provider-typebox|cookie)/)'],
  // typebox and kysely as one file each instead of 945 modules loaded again by every test file (about 1 s
  // of CPU a file): test/support/package-bundles.js
  moduleNameMapper: bundledPackages(['typebox', 'kysely']),
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  // --shard=i/n gives shards of about equal length (npm test runs the server tests as shards)
  testSequencer: '<rootDir>/test/support/balanced-sequencer.js',
  globalSetup: '<rootDir>/test/server/global-setup.js',
  globalTeardown: '<rootDir>/test/server/pg-teardown.js',
  // two suites at a time (CI has 2 cores): each suite makes its own database (support/db.ts), temp
  // directories and free ports, so none shares state with another. --runInBand runs them one by one.
  maxWorkers: 2,
  testTimeout: 30000
}
