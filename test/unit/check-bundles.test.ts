/**
 * scripts/check-bundles.js: what must not ship. Preact (React runs on both builds) and the contract's
 * schema code are found in minified text; React DOM and the app's own code pass.
 */
import fs from 'node:fs'
import path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { forbidden } = require('../../scripts/check-bundles.js') as { forbidden: (text: string) => string[] }

test('a bundle with Preact in it is refused, minified or by its path', () => {
  // what a minified Preact leaves: a vnode's children (__k) and the hooks' state (__H)
  expect(forbidden('function d(n,l){n.__k=[];var u=l.__H||(l.__H={__:[],__h:[]});return u}')).toEqual(['Preact (.__k with .__H)'])
  expect(forbidden('/*! ./node_modules/preact/dist/preact.module.js */')).toEqual(['Preact (node_modules/preact/)'])
})

test('the schema library is refused', () => {
  expect(forbidden('var s={"~kind":"Object"}')).toEqual(['schema code (/[\'"]~kind[\'"]/)'])
})

test('React DOM and plain app code pass', () => {
  const reactDom = fs.readFileSync(path.join(path.dirname(require.resolve('react-dom/package.json')), 'cjs', 'react-dom.production.min.js'), 'utf8')
  expect(forbidden(reactDom)).toEqual([])
  // one of the two Preact names alone is not Preact
  expect(forbidden('a.__k=1;b.__k=2')).toEqual([])
})
