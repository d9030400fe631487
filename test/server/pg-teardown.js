/** Jest globalTeardown: stops the PostgreSQL that pg.js started (if any) and removes its files. */
const { stop } = require('./pg')

module.exports = async function teardown () {
  const state = globalThis.__BLINDBOX_PG__
  if (state) {
    stop(state)
    delete globalThis.__BLINDBOX_PG__
  }
}
