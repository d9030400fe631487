/** Import rules of the API server (server/src); see docs/architecture.md. Owned by the server layout. */
module.exports = {
  roots: ['server/src'],
  tsConfig: 'server/tsconfig.json',
  forbidden: [
    {
      name: 'no-circles',
      comment: 'No import circle, type-only imports included.',
      severity: 'error',
      from: { path: '^server/src' },
      to: { circular: true }
    }
  ]
}
