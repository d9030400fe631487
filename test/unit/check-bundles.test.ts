/**
 * scripts/check-bundles.js: what must not ship. Preact (React runs on both builds) and the contract's
 * schema code are found in minified text; React DOM and the app's own code pass.
 */
import fs from 'node:fs'
import path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { forbidden, entryCssOrder } = require('../../scripts/check-bundles.js') as {
  forbidden: (text: string, target?: 'h5' | 'weapp', name?: string) => string[]
  entryCssOrder: (css: string) => string[]
}

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

test("H5: style-loader's code that inserts Taro's styles from a script is refused there", () => {
  const inserted = 'var t=window._lastElementInsertedByStyleLoader;t?e.insertBefore(n,t.nextSibling):e.insertBefore(n,e.firstChild)'
  expect(forbidden(inserted, 'h5')).toEqual(["style-loader's insertion code (_lastElementInsertedByStyleLoader)"])
  expect(forbidden('document.head.appendChild(link)', 'h5')).toEqual([])
})

test('H5: MobX is refused outside its own chunk (the first pages load it not at all)', () => {
  const mobx = 'function r(t){throw new Error("[MobX] minified error nr: "+t)}'
  expect(forbidden(mobx, 'h5', '/x/dist/h5/js/mobx.77a7796a.js')).toEqual([])
  expect(forbidden(mobx, 'h5', '/x/dist/h5/js/app.615305d1.js')).toEqual(['MobX outside its chunk ([MobX])'])
  expect(forbidden(mobx, 'h5', '/x/dist/h5/js/pages-common.ee89dd10.js')).toEqual(['MobX outside its chunk ([MobX])'])
  // the mini-program keeps MobX in its main package's vendors
  expect(forbidden(mobx, 'weapp', '/x/dist/weapp/vendors.js')).toEqual([])
})

test("H5: Taro's component styles must come before the app's rules in the entry's CSS", () => {
  const taro = '.taro-button-core{background:#f8f8f8}'
  const app = '.text-sub{color:var(--c-sub)}.btn{border-radius:44px}'
  expect(entryCssOrder(taro + app)).toEqual([])
  expect(entryCssOrder(app + taro)).toEqual(["Taro's component styles come after the app's rules in the entry's CSS: src/app.tsx must import ./taro-styles first"])
  expect(entryCssOrder(app)[0]).toMatch(/Taro's component styles are not in it/)
  expect(entryCssOrder(taro)[0]).toMatch(/src\/app.scss is not in it/)
})
