/**
 * The schema of the environment (server/src/config/schema.ts) against what the parsers read and what
 * .env.example documents: one list of variables, with the same defaults everywhere.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Value } from 'typebox/value'
import { DEFAULTS, ENV_NAMES, ENV_SCHEMA, loadConfig, type Config } from '../../server/src/config'

const EXAMPLE = path.resolve(__dirname, '../../.env.example')

/** .env.example's assignments, in order: NAME=value lines (comments skipped). */
function example (): Array<[string, string]> {
  return fs.readFileSync(EXAMPLE, 'utf8').split('\n')
    .map(line => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(m => [m[1], m[2]])
}

/** The variables loadConfig asks `env` for. */
function reads (env: Record<string, string>): Set<string> {
  const asked = new Set<string>()
  const spy = new Proxy(env, { get: (target, name) => { if (typeof name === 'string') asked.add(name); return target[name as string] } })
  try { loadConfig(spy, '/srv/shop') } catch { /* a bad configuration is read as far as a good one */ }
  return asked
}

describe('the schema of the environment', () => {
  test('names exactly the variables the parsers read', () => {
    // unset, each area reads its variables; with any WECHATPAY_* set, WeChat Pay reads the rest of its own
    const payGiven = Object.fromEntries(ENV_NAMES.filter(n => n.startsWith('WECHATPAY_')).map(n => [n, 'x']))
    const asked = new Set([...reads({}), ...reads(payGiven)])
    expect([...asked].sort()).toEqual([...ENV_NAMES].sort())
    expect(new Set(ENV_NAMES).size).toBe(ENV_NAMES.length)
  })

  test('its defaults are valid by the schema, and loadConfig takes each one set explicitly as it takes it unset', () => {
    expect(Value.Check(ENV_SCHEMA, DEFAULTS)).toBe(true)
    const { requestLogs: _unset, ...plain } = loadConfig({}, '/srv/shop')
    const withDefaults = Object.entries(DEFAULTS)
    expect(withDefaults.length).toBeGreaterThan(30)
    for (const [name, value] of withDefaults) {
      const { requestLogs: _set, ...explicit }: Config = loadConfig({ [name]: String(value) }, '/srv/shop')
      expect({ name, config: explicit }).toEqual({ name, config: plain })
    }
  })

  test('.env.example documents every variable once, showing its default or nothing', () => {
    const documented = example()
    expect(documented.map(([name]) => name).sort()).toEqual([...ENV_NAMES].sort())
    const defaults: Record<string, unknown> = DEFAULTS
    for (const [name, shown] of documented) {
      if (shown === '') continue
      expect({ name, shown }).toEqual({ name, shown: String(defaults[name]) })
    }
    // and what it shows loads
    expect(() => loadConfig(Object.fromEntries(documented), '/srv/shop')).not.toThrow()
  })
})
