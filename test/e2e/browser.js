// Launches Debian's Chromium through playwright-core (never a downloaded browser): a fresh
// profile, a 375x812 phone, the flags this machine's closed network needs.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { chromium } = require('playwright-core')

const CHROMIUM = process.env.CHROMIUM_PATH || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(p => fs.existsSync(p))

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

/**
 * The e2e runner shares one Chromium among its phones (shareOneBrowser): each phone is a browser
 * context of its own (its own cookies, storage, permissions, locale, like a fresh profile), and a new
 * context costs about 0.4 s of CPU where launching Chromium cost about 2.2 s (measured on 2 cores, 5 of
 * each), which the run paid for every phone. Other callers (benches, scripts) launch a browser each.
 */
let shared = null
function shareOneBrowser () {
  if (!CHROMIUM) throw new Error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)')
  shared ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS })
  return shared
}
async function closeSharedBrowser () {
  const browser = shared
  shared = null
  if (browser) await (await browser).close()
}

async function launchPhone ({ locale = 'zh-CN', geolocation, reducedMotion, debugPort } = {}) {
  if (!CHROMIUM) throw new Error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)')
  const phone = {
    locale,
    // a position for "use my location" (the page may read it without a prompt)
    ...(geolocation ? { geolocation, permissions: ['geolocation'] } : {}),
    // the system's "reduce motion" ('reduce' or 'no-preference'; Chromium's default otherwise)
    ...(reducedMotion ? { reducedMotion } : {}),
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true
  }
  // a DevTools port (Lighthouse, test/e2e/lighthouseA11y.js) belongs to a browser of its own
  if (shared && !debugPort) {
    const ctx = await (await shared).newContext(phone)
    return { ctx, close: () => ctx.close() }
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-profile-'))
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, `--lang=${locale}`,
      // a DevTools port for Lighthouse (test/e2e/lighthouseA11y.js), on 127.0.0.1 only
      ...(debugPort ? [`--remote-debugging-port=${debugPort}`, '--remote-debugging-address=127.0.0.1'] : [])],
    ...phone
  })
  const close = async () => {
    await ctx.close()
    fs.rmSync(profile, { recursive: true, force: true })
  }
  return { ctx, close }
}

const SHOTS = path.resolve(__dirname, '../../test-results/screenshots')

/**
 * One phone page for an end-to-end suite: uncaught page errors are collected, `input(cls)` finds the
 * real <input> of a Taro Input, `shot(name)` saves a screenshot once transitions settle.
 */
async function openPhonePage (options) {
  fs.mkdirSync(SHOTS, { recursive: true })
  const { ctx, close } = await launchPhone(options)
  const page = ctx.pages()[0] || await ctx.newPage()
  const errors = []
  page.on('pageerror', e => errors.push(e.message))
  return {
    page,
    errors,
    close,
    input: cls => page.locator(`input.${cls}, .${cls} input`).first(),
    shot: async name => { await settled(page); await page.screenshot({ path: path.join(SHOTS, name) }) }
  }
}

/**
 * Waits until the page's running transitions and animations end (endless ones, a spinner's, are left
 * running; 2 s at most), then for two frames: a screenshot shows where things come to rest. (It was a
 * fixed 400 ms pause, at about 200 screenshots a run.)
 */
async function settled (page) {
  await page.evaluate(() => Promise.race([
    Promise.all(document.getAnimations()
      .filter(a => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
      .map(a => a.finished.catch(() => undefined))),
    new Promise(resolve => setTimeout(resolve, 2000))
  ]).then(() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)))))
    // the page navigated meanwhile: the fixed pause of before
    .catch(() => page.waitForTimeout(400))
}

/**
 * Logs in on the login page with a user name and password (the agreement ticked if it is not), and
 * waits for home. `p` is what openPhonePage answers (its page and input).
 */
async function passwordLogin (p, base, user, password) {
  await p.page.goto(`${base}/`, { waitUntil: 'networkidle' })
  await p.input('input-account').fill(user)
  await p.input('input-password').fill(password)
  if (await p.page.locator('.login-check--on').count() === 0) await p.page.locator('.login-check').click()
  await p.page.locator('.login-submit').click()
  await p.page.waitForURL(/\/pagesA\/home\/index/)
}

module.exports = { launchPhone, shareOneBrowser, closeSharedBrowser, openPhonePage, passwordLogin, CHROMIUM, SHOTS }
