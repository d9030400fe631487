/**
 * Jest globalSetup of the server tests: the compiled server that the process tests start (crash,
 * workers, scale-out, the backup drill ...: dist/server-test, test/support/processes.js), then
 * PostgreSQL (pg.js).
 */
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const { buildCompiledServer } = require('../support/processes')
const startPostgres = require('./pg')

/**
 * The local engines, asked once for the whole run: which of TTS_ENGINE=auto and OCR_ENGINE=auto would
 * turn on here (espeak-ng that runs; tesseract with Chinese and English data, as
 * server/src/providers/{tts,ocr}.ts ask). Every test app otherwise asked in each test file, three
 * processes before its first app (a test file is a module registry of its own), and several hundred
 * test files' worth of them is half a minute of the run. support/app.ts's envFor names the answer
 * (espeak-ng or off, tesseract or off) unless a test sets the variable itself; the workers inherit it.
 */
function probeEngines () {
  const runs = (command, args) => {
    try {
      const r = spawnSync(command, args, { timeout: 5000, encoding: 'utf8' })
      return r.status === 0 ? `${r.stdout}` : null
    } catch {
      return null
    }
  }
  process.env.TEST_TTS_ENGINE ??= runs('espeak-ng', ['--version']) !== null ? 'espeak-ng' : 'off'
  const langs = (runs('tesseract', ['--list-langs']) ?? '').split(/\s+/)
  process.env.TEST_OCR_ENGINE ??= ['chi_sim', 'eng'].every(l => langs.includes(l)) ? 'tesseract' : 'off'
}

module.exports = async function setup (globalConfig, projectConfig) {
  buildCompiledServer('dist/server-test')
  probeEngines()
  // where the test apps and the server processes keep the code of the schemas they compile
  // (SCHEMA_CODE_DIR, server/src/http/compilers.ts): support/app.ts passes it on, the processes inherit it
  process.env.SCHEMA_CODE_DIR ??= path.join(__dirname, '../../node_modules/.cache/schema-code')
  await startPostgres(globalConfig, projectConfig)
}
