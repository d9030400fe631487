/** Import rules of the API server (server/src); see docs/architecture.md. Owned by the server layout. */
const S = '^server/src/'
// the layers, bottom to top; a file may import its own layer and those below, never one above
const CORE = `${S}(core|config)(/|\\.ts$)`
const BASE = `${S}(db|providers|engines|security|i18n|metrics)/`
const DOMAIN = `${S}domain/`
const UPPER = `${S}(http|routes|data|ops|context\\.ts|app\\.ts|main\\.ts|seed\\.ts|dotenv\\.ts)`

module.exports = {
  roots: ['server/src'],
  tsConfig: 'server/tsconfig.json',
  // the packages stay out of the graph, but for the web framework's, which domain-not-fastify names
  exclude: '(^|/)node_modules/(?!(fastify|@fastify/[^/]+)/)',
  forbidden: [
    {
      name: 'no-circles',
      comment: 'No import circle, type-only imports included.',
      severity: 'error',
      from: { path: '^server/src' },
      to: { circular: true }
    },
    {
      name: 'domain-not-web',
      comment: 'The domain never imports http, routes, context or app (nor anything else above it).',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: UPPER }
    },
    {
      name: 'domain-not-fastify',
      comment: 'The domain never imports the web framework (fastify, @fastify/*): what it needs of it, such as a logger, it names in core/.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^(node_modules/)?(fastify|@fastify/)' }
    },
    {
      name: 'routes-not-routes',
      comment: 'A route module never imports another; what routes share lives in http/ or the domain.',
      severity: 'error',
      from: { path: `${S}routes/` },
      to: { path: `${S}routes/` }
    },
    {
      name: 'core-is-a-leaf',
      comment: 'core imports only node built-ins, types/ and the message table (i18n/messages.ts, itself a leaf).',
      severity: 'error',
      from: { path: `${S}core/` },
      to: { path: '^(?!types/|server/src/core/|server/src/i18n/messages\\.ts$)', dependencyTypesNot: ['core'] }
    },
    {
      name: 'config-is-a-leaf',
      comment: 'config imports only core, itself, types/ and packages.',
      severity: 'error',
      from: { path: `${S}config(/|\\.ts$)` },
      to: { path: `${S}(?!core/|config/)` }
    },
    {
      name: 'base-not-above',
      comment: 'db, providers, engines, security, i18n and metrics never import the domain or anything above it.',
      severity: 'error',
      from: { path: BASE },
      to: { path: `(${DOMAIN}|${UPPER})` }
    },
    {
      name: 'core-config-not-above',
      comment: 'core and config never import a layer above them.',
      severity: 'error',
      from: { path: CORE },
      to: { path: `(${BASE}|${DOMAIN}|${UPPER})`, pathNot: `${S}i18n/messages\\.ts$` }
    },
    {
      name: 'server-not-app',
      comment: 'The server never imports the app (src/); both share types/ only.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/' }
    }
  ]
}
