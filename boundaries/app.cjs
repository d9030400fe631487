/**
 * Import rules of the app (src/); see docs/architecture.md. Owned by the app layout.
 *
 * A page is a folder src/<package>/<name>/, <package> being `pages` or a subpackage root of
 * src/app.config.ts (pagesA today). A page keeps its own helpers in its folder; what two places use lives
 * in components/ (UI), utils/, services/ or stores/, which never reach back into a page.
 */
const fs = require('node:fs')
const path = require('node:path')

const appConfig = fs.readFileSync(path.join(__dirname, '..', 'src', 'app.config.ts'), 'utf8')
const subRoots = [...appConfig.matchAll(/\broot:\s*['"]([\w-]+)['"]/g)].map(m => m[1])
const packages = [...new Set(['pages', ...subRoots])].join('|')
const PAGE = `^src/(${packages})/[^/]+/`
const SHARED = '^src/(components|services|stores|utils)/'

module.exports = {
  roots: ['src'],
  tsConfig: 'tsconfig.json',
  forbidden: [
    {
      name: 'no-page-imports-page',
      comment: 'A page never imports another page: what two pages share goes to components/, utils/, services/ or stores/.',
      severity: 'error',
      from: { path: `^(src/(${packages})/[^/]+)/` },
      to: { path: PAGE, pathNot: '^$1/' }
    },
    {
      name: 'shared-never-imports-pages',
      comment: 'components, services, stores and utils serve the pages and never import one.',
      severity: 'error',
      from: { path: SHARED },
      to: { path: PAGE }
    },
    {
      name: 'app-not-server',
      comment: 'The app never imports the API server: the contract both share is types/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' }
    },
    {
      name: 'app-types-from-types',
      comment: 'The app imports its own modules (src/), the contract (types/) and packages, nothing else of the repository.',
      severity: 'error',
      from: { path: '^src/' },
      to: { pathNot: '^(src|types|server)/|(^|/)node_modules/', couldNotResolve: false, dependencyTypesNot: ['core'] }
    },
    {
      name: 'no-circles',
      comment: 'No import circle in the app, type-only imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true }
    }
  ]
}
