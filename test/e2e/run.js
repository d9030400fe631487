#!/usr/bin/env node
// Runs the H5 end-to-end tests against the H5 build served on 127.0.0.1.
const path = require('node:path')
const fs = require('node:fs')
const { createServer } = require('../../scripts/serve-h5')

const SUITES = [require('./h5-shell.e2e')]

;(async () => {
  const dist = path.resolve(__dirname, '../../dist/h5')
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('dist/h5 is missing: run npm run build:h5 first')
  const server = createServer(dist)
  await new Promise(r => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${server.address().port}`
  const t0 = Date.now()
  try {
    for (const suite of SUITES) await suite.run({ base })
  } finally {
    server.close()
  }
  console.log(`e2e: ${SUITES.length} suite(s) passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
})().catch(e => { console.error('e2e FAILED:', e); process.exit(1) })
