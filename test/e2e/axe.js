/**
 * axe-core (node_modules/axe-core, a devDependency) in a Playwright page: `axeProblems(page)` injects
 * axe.min.js, runs every rule axe enables by default on the whole document and answers one line per
 * violation of impact serious or critical (rule id, impact, the selectors of its elements).
 * No rule is turned off. TARO_OWN lists elements of Taro's own generated DOM that the app cannot change;
 * each is left out of the run with the reason (and test/e2e/a11y.e2e.js shows that it is Taro's).
 */
const fs = require('node:fs')

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/** Elements of Taro's own DOM that axe is not run on, each with why. Empty: the app's fixes were enough. */
const TARO_OWN = []

async function axeViolations (page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE) // evaluated as a script (a script tag would meet the page's CSP)
  return page.evaluate(async exclude => {
    const context = exclude.length ? { include: [document], exclude: exclude.map(e => e.selector) } : document
    const result = await window.axe.run(context, { resultTypes: ['violations'] })
    // colour contrast: the colours axe measured and their ratio, after the selector
    const detail = n => { const d = n.any?.[0]?.data; return d && d.contrastRatio !== undefined ? ` (${d.fgColor} on ${d.bgColor}: ${d.contrastRatio})` : '' }
    return result.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target.join(' ') + detail(n)), summaries: v.nodes.map(n => n.failureSummary) }))
  }, TARO_OWN)
}

/** The serious and critical violations as lines: "rule (impact): selector, selector". */
async function axeProblems (page) {
  const serious = (await axeViolations(page)).filter(v => v.impact === 'serious' || v.impact === 'critical')
  return serious.map(v => `axe ${v.id} (${v.impact}, ${v.help}): ${v.targets.slice(0, 8).join(' | ')}${v.targets.length > 8 ? ` and ${v.targets.length - 8} more` : ''}`)
}

/**
 * The rules Lighthouse's accessibility category scores (weight above 0), read from the installed
 * Lighthouse's default configuration. Its audits of the page are axe-core rules of the same ids.
 */
let lighthouseRules = null
async function lighthouseScoredRules () {
  if (!lighthouseRules) {
    const { default: config } = await import('lighthouse/core/config/default-config.js')
    lighthouseRules = config.categories.accessibility.auditRefs.filter(ref => ref.weight > 0).map(ref => ref.id)
  }
  return lighthouseRules
}

/**
 * Lighthouse's accessibility category as axe computes it: every rule Lighthouse scores, run by axe
 * whatever its default, and a violation of any impact is a problem (Lighthouse's score of such a page
 * is below 100; the floor of routes.e2e.js is 95, so this is the stricter check). Answers one line per
 * violation, as axeProblems does.
 */
async function lighthouseRuleProblems (page) {
  const wanted = await lighthouseScoredRules()
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE)
  const found = await page.evaluate(async wanted => {
    const known = new Set(window.axe.getRules().map(r => r.ruleId))
    const result = await window.axe.run(document, { runOnly: { type: 'rule', values: wanted.filter(id => known.has(id)) }, resultTypes: ['violations'] })
    return result.violations.map(v => ({ id: v.id, impact: v.impact, targets: v.nodes.map(n => n.target.join(' ')) }))
  }, wanted)
  return found.map(v => `Lighthouse's rule ${v.id} (${v.impact}) by axe: ${v.targets.slice(0, 8).join(' | ')}`)
}

module.exports = { axeViolations, axeProblems, lighthouseRuleProblems, lighthouseScoredRules, TARO_OWN }
