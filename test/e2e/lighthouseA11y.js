/**
 * Lighthouse's accessibility category of the page a Playwright-driven Chromium is showing, as it is
 * now (Lighthouse's snapshot mode: no reload, no emulation, no throttling), through the browser's
 * DevTools port (launchPhone({ debugPort })). Answers the score (0-100) and the audits that failed,
 * with their weight and the first few elements each names.
 */
const puppeteer = require('puppeteer-core')

/**
 * One Lighthouse run at a time in this process: Lighthouse keeps its timings in the process's global
 * performance marks, and two runs at once (the routes in zh and en on two shops) tore each other's
 * marks down ("performance mark has not been set"). The queue holds the other run's turn.
 */
let turn = Promise.resolve()
function lighthouseA11y (port, pageUrl) {
  const mine = turn.then(() => snapshotA11y(port, pageUrl))
  turn = mine.catch(() => undefined)
  return mine
}

async function snapshotA11y (port, pageUrl) {
  const { snapshot } = await import('lighthouse')
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null })
  try {
    const pages = await browser.pages()
    const page = pages.find(p => p.url() === pageUrl) ?? pages.find(p => p.url().startsWith(pageUrl.split('?')[0]))
    if (!page) throw new Error(`lighthouse: no tab shows ${pageUrl} (tabs: ${pages.map(p => p.url()).join(', ')})`)
    const result = await snapshot(withoutMachineBenchmark(page), {
      config: {
        extends: 'lighthouse:default',
        // no full-page screenshot: the report's pictures of the failing elements are not read here, and
        // a screenshot of a 2x phone page on each of about 50 runs cost CPU without changing a score
        settings: { onlyCategories: ['accessibility'], formFactor: 'mobile', screenEmulation: { disabled: true }, throttlingMethod: 'provided', disableFullPageScreenshot: true }
      }
    })
    const lhr = result.lhr
    const category = lhr.categories.accessibility
    const failed = category.auditRefs
      .filter(ref => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
      .map(ref => {
        const audit = lhr.audits[ref.id]
        const items = audit.details?.items ?? []
        return { id: ref.id, weight: ref.weight, title: audit.title, nodes: items.slice(0, 3).map(i => i.node?.snippet ?? i.node?.selector ?? '').filter(Boolean) }
      })
    return { score: Math.round(category.score * 100), failed }
  } finally {
    browser.disconnect()
  }
}

/**
 * The page as Lighthouse sees it, less the machine benchmark. Every run of Lighthouse first times the
 * machine: two busy loops of 500 ms each in the page (`computeBenchmarkIndex` in its page functions,
 * evaluated over the DevTools protocol). The index only goes into the report's environment and a
 * "slow CPU" warning for performance runs; no accessibility audit reads it. On about 50 runs a CI run
 * it was a second of a processor each (2.2 s of Chromium's CPU a run became 1.3 s). The one DevTools
 * call that runs it is answered 0, the value Lighthouse itself uses when the index is missing; every
 * other call goes to the browser as it is.
 */
function withoutMachineBenchmark (page) {
  const forward = (target, key) => {
    const value = Reflect.get(target, key, target)
    return typeof value === 'function' ? value.bind(target) : value
  }
  const session = (real) => new Proxy(real, {
    get: (target, key) => key !== 'send'
      ? forward(target, key)
      : (method, params) => method === 'Runtime.evaluate' && String(params?.expression).includes('computeBenchmarkIndex')
          ? Promise.resolve({ result: { type: 'number', value: 0 } })
          : target.send(method, params)
  })
  const target = (real) => new Proxy(real, {
    get: (t, key) => key === 'createCDPSession' ? async () => session(await t.createCDPSession()) : forward(t, key)
  })
  return new Proxy(page, { get: (p, key) => key === 'target' ? () => target(p.target()) : forward(p, key) })
}

module.exports = { lighthouseA11y }
