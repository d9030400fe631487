/**
 * Packages of many small modules, each bundled into one CommonJS file for Jest (`moduleNameMapper`).
 *
 * Jest loads every module again in every test file (each file has a registry of its own), through its
 * resolver, its transform cache and a fresh compile. typebox 1.x is 683 ES modules (Babel turns each
 * into CommonJS for Jest) and kysely 262: measured in one server test file on 2026-11-28, requiring
 * them cost 0.97 s and 0.17 s of CPU, a third of what the whole server costs to load, and the server
 * tests have over 90 files. As one file each they load in a tenth of that.
 *
 * The code is the package's own, unchanged: esbuild only joins its modules (no minifying, no
 * transform beyond ES modules to CommonJS, Node 20). A package's subpaths (`typebox/compile`) are
 * namespaces of the same bundle, so every subpath shares one copy of the package's internals, as it
 * does when Node loads the modules themselves. The bundles are kept in node_modules/.cache, named by the
 * package's version and this file's recipe, and made once (written under a temporary name and renamed,
 * so two Jests starting side by side never read half a file).
 */
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const root = path.resolve(__dirname, '../..')
const dir = path.join(root, 'node_modules', '.cache', 'jest-package-bundles')

/**
 * Each bundle: `imports`, the specifiers it answers (the first is the package itself, the others its
 * subpaths, namespaces of the same file); `default`, whether the package has a default export
 * (typebox's is its Type namespace); `external`, whether the package's own dependencies stay outside
 * (they are still loaded once each, through Jest, so a dependency shared with other code, such as
 * @tarojs/runtime, stays one copy); `cjs`, a CommonJS package (answered as its module.exports).
 */
const BUNDLES = {
  typebox: { imports: ['typebox', 'typebox/compile', 'typebox/value'], default: true },
  kysely: { imports: ['kysely'] },
  // the unit tests: aria-query's role tables under @testing-library/dom (149 modules). (Taro's H5 APIs
  // and components are not bundled: they share Stencil's custom elements through paths of their own,
  // and one bundle of each would load the elements twice.)
  'aria-query': { imports: ['aria-query'], cjs: true, external: true }
}

const RECIPE = 'esbuild cjs node20 v2'

const pkgOf = (spec) => spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
const version = (spec) => JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkgOf(spec), 'package.json'), 'utf8')).version
const ident = (i) => `sub_${i}`

/** Makes bundle `name` and one small file per subpath if they are missing; answers specifier -> file. */
function bundle (name) {
  const b = BUNDLES[name]
  const [main, ...subs] = b.imports
  const tag = crypto.createHash('sha256').update(`${RECIPE} ${JSON.stringify(b)} ${version(main)}`).digest('hex').slice(0, 12)
  const mainFile = path.join(dir, `${name}-${tag}.cjs`)
  const files = { [main]: mainFile }
  subs.forEach((sub, i) => { files[sub] = path.join(dir, `${name}-${tag}-${i + 1}.cjs`) })
  if (Object.values(files).every(f => fs.existsSync(f))) return files
  fs.mkdirSync(dir, { recursive: true })
  // the package itself is the bundle's exports; each subpath a namespace beside them
  const entry = b.cjs
    ? `module.exports = require('${main}')`
    : [
        `export * from '${main}'`,
        ...(b.default ? [`export { default } from '${main}'`] : []),
        ...subs.map((sub, i) => `import * as ${ident(i)} from '${sub}'`),
        `export const __jestSubpaths = [${subs.map((sub, i) => ident(i)).join(', ')}]`
      ].join('\n')
  const { outputFiles } = require('esbuild').buildSync({
    stdin: { contents: entry, resolveDir: root, sourcefile: `${name}-bundle-entry.${b.cjs ? 'cjs' : 'mjs'}` },
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // the package's own files joined; `external` leaves every other package to Jest
    ...(b.external ? { external: dependenciesOf(pkgOf(main)) } : {}),
    logLevel: 'silent'
  })
  const write = (file, text) => {
    const tmp = `${file}.${process.pid}.tmp`
    fs.writeFileSync(tmp, text)
    fs.renameSync(tmp, file)
  }
  write(mainFile, outputFiles[0].text)
  subs.forEach((sub, i) => {
    write(files[sub], `'use strict'\n// ${sub}: a namespace of ${path.basename(mainFile)}\nmodule.exports = require('./${path.basename(mainFile)}').__jestSubpaths[${i}]\n`)
  })
  return files
}

/** The packages `pkg` depends on, and their subpaths: esbuild leaves them as require() for Jest to resolve. */
function dependenciesOf (pkg) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8'))
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies })
  return names.flatMap(n => [n, `${n}/*`])
}

/** Jest `moduleNameMapper` entries sending each package and subpath to its bundle (made if missing). */
function bundledPackages (names = Object.keys(BUNDLES)) {
  const map = {}
  for (const name of names) {
    for (const [spec, file] of Object.entries(bundle(name))) {
      map[`^${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`] = file
    }
  }
  return map
}

module.exports = { bundledPackages, BUNDLES }
