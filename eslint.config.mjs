// ESLint for the whole repository: the app (src/, Taro React), the server (server/src/), the contract
// (types/), the tests, scripts, benches and Taro's build config. neostandard is the style the code
// already follows (no semicolons, single quotes, a space before a function's parentheses); the rules
// turned off below are the places where the code's own consistent habit differs from neostandard's
// default, so the linter follows the code rather than rewriting it. No rule needs type information
// (no parserOptions.project), which keeps a run to about a minute of CPU. docs/testing.md has the
// policy for eslint-disable comments.
import neostandard, { resolveIgnoresFromGitignore } from 'neostandard'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

const TS = ['**/*.{ts,tsx,mts,cts}']

export default [
  ...neostandard({
    ts: true,
    ignores: [
      ...resolveIgnoresFromGitignore(),
    ],
  }),

  // typescript-eslint's recommended set (syntax only, no type information) on TypeScript files
  ...tseslint.configs.recommended.map(config => ({ ...config, files: config.files ?? TS })),

  // React's rules of hooks and the React-Compiler-derived checks, on the app
  {
    ...reactHooks.configs.flat.recommended,
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // The app has no React Compiler. `refs` refuses the latest-value idiom (`ref.current = value` during
      // render, read in a handler or effect) that the hooks and pages use throughout; every finding was
      // that idiom, none a bug.
      'react-hooks/refs': 'off',
      // `set-state-in-effect` asks for derived state instead of an effect that copies props into state
      // (one extra render); a design preference, not a correctness check. Its findings were all of that kind.
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  // the unit tests' components follow the rules of hooks; their Taro lifecycle mocks run once on mount on purpose
  {
    files: ['test/unit/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error' },
  },

  {
    name: 'house/style',
    rules: {
      // Objects and JSX tags are packed several properties a line and closed on the last line, consistently
      '@stylistic/object-property-newline': 'off',
      '@stylistic/jsx-first-prop-new-line': 'off',
      '@stylistic/jsx-closing-bracket-location': 'off',
      '@stylistic/jsx-closing-tag-location': 'off',
      // a block under `{cond && <>` may stay at its parent's depth; @stylistic/indent still checks the rest
      '@stylistic/jsx-indent': 'off',
      // `const input = <Input ...` may continue its props on the next lines without wrapping parentheses
      '@stylistic/jsx-wrap-multilines': 'off',
      // chained ternaries read `a ? x : b ? y : z` on one line, and `c ? {} : {` opens an object
      '@stylistic/multiline-ternary': 'off',
      // handlers are store methods and callbacks passed through (onClick={store.toggle}), not handleX
      'react/jsx-handler-names': 'off',
      // `void promise` marks a deliberate fire-and-forget
      'no-void': ['error', { allowAsStatement: true }],
      // `new Promise(r => setTimeout(r, ms))` is the house idiom; a swapped (reject, resolve) still fails
      'promise/param-names': ['error', { resolvePattern: '^(_|_?r|_?res|_?resolve)$', rejectPattern: '^_?(rej|reject)$' }],
    },
  },
  {
    name: 'house/typescript',
    files: TS,
    rules: {
      // TypeBox declares a schema and its type under one name (`const X = Type.Object(...)`,
      // `type X = Static<typeof X>`); TypeScript itself reports real redeclarations
      '@typescript-eslint/no-redeclare': 'off',
    },
  },
  {
    // tests read loosely typed JSON answers (asserting their shape is the test's job)
    name: 'house/tests',
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Kysely migrations take Kysely<any> on purpose: a migration must not depend on today's schema type
    name: 'house/migrations',
    files: ['server/src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // the H5 shims stand in for libraries in node_modules and are written in ES5 on purpose
    name: 'house/shims',
    files: ['src/shims/**'],
    rules: { 'no-var': 'off', 'prefer-const': 'off', 'object-shorthand': 'off' },
  },

  // globals per place
  {
    name: 'house/node',
    files: ['**/*.{js,cjs,mjs}', 'config/**', 'scripts/**', 'bench/**', 'test/**', 'server/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    name: 'house/jest',
    files: ['test/**'],
    languageOptions: { globals: { ...globals.jest } },
  },
  {
    // functions handed to page.evaluate run in the browser
    name: 'house/browser-callbacks',
    files: ['test/e2e/**', 'scripts/prerender.js', 'bench/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // miniprogram-simulate's globals in the weapp tests
    name: 'house/weapp-tests',
    files: ['test/weapp/**'],
    languageOptions: { globals: { wx: 'readonly', getCurrentPages: 'readonly', getApp: 'readonly' } },
  },
]
