/** The web services the shop looks things up in: parcel tracking (Kuaidi100), price comparison (JD Union), trains and flights (Juhe). */
import { apiBase, isUrl, variable, type Problems, type Reader } from './env'

const KUAIDI100_CUSTOMER = /^[A-Za-z0-9]{8,64}$/
const KUAIDI100_KEY = /^[A-Za-z0-9]{4,64}$/

export const servicesVariables = {
  KUAIDI100_CUSTOMER: variable.text('Kuaidi100\'s customer id (parcel tracking); set with KUAIDI100_KEY', { pattern: KUAIDI100_CUSTOMER }),
  KUAIDI100_KEY: variable.text('Kuaidi100\'s authorization key', { pattern: KUAIDI100_KEY }),
  KUAIDI100_API_BASE: variable.url('Base of Kuaidi100\'s enterprise API', 'https://poll.kuaidi100.com'),
  SHIP_FROM_CITY: variable.text('Where the shop\'s parcels leave from (the parcel map\'s start), at most 60 characters', { default: '广东省深圳市' }),
  JD_UNION_APP_KEY: variable.text('The key of an app on union.jd.com (price comparison); set with JD_UNION_APP_SECRET'),
  JD_UNION_APP_SECRET: variable.text('The secret of that app'),
  JD_UNION_API_BASE: variable.url('JD Union\'s router', 'https://api.jd.com/routerjson'),
  JUHE_TRAIN_KEY: variable.text('The key of Juhe\'s train ticket query; unset: that call is off'),
  JUHE_FLIGHT_KEY: variable.text('The key of Juhe\'s flight query; unset: that call is off'),
  JUHE_API_BASE: variable.url('Base of Juhe\'s API', 'https://apis.juhe.cn')
}
type Name = keyof typeof servicesVariables

/** Kuaidi100's enterprise query API: KUAIDI100_CUSTOMER and KUAIDI100_KEY (off without them). */
export interface ExpressConfig {
  kuaidi100?: { customer: string; key: string }
  apiBase: string
  /** SHIP_FROM_CITY: where the shop's parcels leave from (the parcel map's start), e.g. 广东省深圳市. */
  shipFromCity: string
}

export interface LookupsConfig {
  /** JD_UNION_APP_KEY + JD_UNION_APP_SECRET (price comparison; off without them), JD_UNION_API_BASE. */
  jdUnion?: { appKey: string; appSecret: string; apiBase: string }
  /** JUHE_TRAIN_KEY and JUHE_FLIGHT_KEY (each call off without its key), JUHE_API_BASE. */
  juhe: { apiBase: string; trainKey?: string; flightKey?: string }
}

/** JD_UNION_* and JUHE_*. */
export function parseLookups (env: Reader<Name>, problems: Problems): LookupsConfig {
  const jdKey = env.get('JD_UNION_APP_KEY')
  const jdSecret = env.get('JD_UNION_APP_SECRET')
  if (!!jdKey !== !!jdSecret) problems.push('JD_UNION_APP_KEY and JD_UNION_APP_SECRET must be set together (the app\'s key and secret on union.jd.com)')
  const jdBase = env.value('JD_UNION_API_BASE')
  if (!isUrl(jdBase, ['http:', 'https:'])) problems.push('JD_UNION_API_BASE must be an http:// or https:// URL (JD\'s router, e.g. https://api.jd.com/routerjson)')
  const juheBase = env.value('JUHE_API_BASE').replace(/\/+$/, '')
  if (!isUrl(juheBase, ['http:', 'https:'])) problems.push('JUHE_API_BASE must be an http:// or https:// URL (e.g. https://apis.juhe.cn)')
  return {
    ...(jdKey && jdSecret ? { jdUnion: { appKey: jdKey, appSecret: jdSecret, apiBase: jdBase } } : {}),
    juhe: { apiBase: juheBase, trainKey: env.get('JUHE_TRAIN_KEY'), flightKey: env.get('JUHE_FLIGHT_KEY') }
  }
}

/** KUAIDI100_CUSTOMER and KUAIDI100_KEY together, KUAIDI100_API_BASE and SHIP_FROM_CITY. */
export function parseExpress (env: Reader<Name>, problems: Problems): ExpressConfig {
  const base = apiBase(env, 'KUAIDI100_API_BASE', problems)
  const customer = env.get('KUAIDI100_CUSTOMER')
  const key = env.get('KUAIDI100_KEY')
  if (!!customer !== !!key) problems.push('KUAIDI100_CUSTOMER and KUAIDI100_KEY must be set together')
  if (customer && !KUAIDI100_CUSTOMER.test(customer)) problems.push('KUAIDI100_CUSTOMER must be the customer id Kuaidi100 gives (letters and digits)')
  if (key && !KUAIDI100_KEY.test(key)) problems.push('KUAIDI100_KEY must be the authorization key Kuaidi100 gives (letters and digits)')
  const shipFromCity = env.value('SHIP_FROM_CITY').trim()
  if (!shipFromCity || shipFromCity.length > 60) problems.push('SHIP_FROM_CITY must be a city name of at most 60 characters, e.g. 广东省深圳市')
  return { kuaidi100: customer && key ? { customer, key } : undefined, apiBase: base, shipFromCity }
}
