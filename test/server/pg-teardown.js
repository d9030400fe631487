/**
 * Jest globalTeardown: stops the PostgreSQL that pg.js started (if any) and removes its files, and the
 * run's database templates (support/db.ts): the SQLite file, and on a server of PG_TEST_URL the database.
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { stop } = require('./pg')

module.exports = async function teardown () {
  const template = process.env.TEST_DB_TEMPLATE
  if (template) fs.rmSync(path.join(os.tmpdir(), `${template}.sqlite`), { force: true })
  const state = globalThis.__BLINDBOX_PG__
  if (state) {
    stop(state)
    delete globalThis.__BLINDBOX_PG__
  } else if (template && process.env.PG_TEST_URL && process.env.DATABASE_URL) {
    const { Client } = require('pg')
    const client = new Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    try {
      await client.query(`alter database ${template} is_template false`)
      await client.query(`drop database if exists ${template} with (force)`)
    } catch (err) {
      // none was made (no suite asked for PostgreSQL)
      if (!/does not exist/.test(String(err && err.message))) throw err
    } finally {
      await client.end()
    }
  }
}
