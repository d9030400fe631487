/** Jest globalSetup of the mini-program suites: the compiled server each suite starts (test/weapp/shop.js). */
const { buildCompiledServer } = require('../support/processes')

module.exports = async function setup () {
  buildCompiledServer('dist/server-weapp')
}
