/**
 * The base dictionary: ./zh/core.ts (what the login page, home and the app's start need) and
 * ./zh/rest.ts (every other page). Its shape is the type every other locale must satisfy (see
 * ./types.ts), so a key missing from the English files fails to compile. Placeholders are written {name}.
 */
import core from './zh/core'
import rest from './zh/rest'

const zh = { ...core, ...rest }

export default zh
