/**
 * Jest globalSetup of the server tests: the compiled server that the process tests start (crash,
 * workers, scale-out, the backup drill ...: dist/server-test, test/support/processes.js), then
 * PostgreSQL (pg.js).
 */
const { buildCompiledServer } = require('../support/processes')
const startPostgres = require('./pg')

module.exports = async function setup (globalConfig, projectConfig) {
  buildCompiledServer('dist/server-test')
  await startPostgres(globalConfig, projectConfig)
}
