#!/usr/bin/env node
/**
 * Pictures of the mini-program build for the README and docs/weapp.md: runs
 * test/weapp/screenshot.weapp.test.js (the compiled pages in the simulator against the real server,
 * written out as HTML with the build's WXSS) and photographs each page in Chromium at 375x812.
 * What it shows is the build's own element tree and styles, drawn by Chromium: WeChat's renderer is not
 * available here, so native parts (the navigation bar, fonts, the keyboard) are not WeChat's.
 *
 * Usage: npm run build:weapp (with TARO_APP_API_BASE as test/weapp/origin.js) && node scripts/weapp-screenshot.js
 * Writes docs/img/weapp-<page>-zh.png.
 */
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const fs = require('node:fs')
const { chromium } = require('playwright-core')
const sharp = require('sharp')
const { CHROMIUM } = require('../test/e2e/browser')

const root = path.resolve(__dirname, '..')
const pages = ['login', 'home']

;(async () => {
  const jest = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '-c', 'jest.weapp.config.js', 'test/weapp/screenshot.weapp.test.js'], { cwd: root, stdio: 'inherit' })
  if (jest.status !== 0) process.exit(jest.status || 1)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 })
    for (const name of pages) {
      const html = path.join(root, 'test-results', 'weapp', `${name}.html`)
      await page.goto(`file://${html}`)
      await page.waitForTimeout(300)
      const out = path.join(root, 'docs', 'img', `weapp-${name}-zh.png`)
      // a palette PNG (as docs/img/h5-home-en.png): a quarter of the size, no visible loss for a page
      await sharp(await page.screenshot()).png({ palette: true, quality: 90 }).toFile(out)
      console.log(`${path.relative(root, out)} (${(fs.statSync(out).size / 1024).toFixed(0)} KB)`)
    }
  } finally {
    await browser.close()
  }
})().catch(e => { console.error(e); process.exit(1) })
