// every route of routes.e2e.js in English, on a shop of its own beside the Chinese one
const { checkRoutes, CHECKS } = require('./routes.e2e')

module.exports = { name: `every route in en: ${CHECKS}`, run: ctx => checkRoutes(ctx, ['en']) }
