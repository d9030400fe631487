/** Maps: the Tencent location service and the AMap web service, whose routes the app uses, and the H5 map. */
import { apiBase, variable, type Problems, type Reader } from './env'

const TENCENT_KEY = /^[A-Za-z0-9-]{10,64}$/
const TENCENT_SK = /^[A-Za-z0-9]{8,64}$/
const AMAP_KEY = /^[A-Za-z0-9]{16,64}$/

export const mapsVariables = {
  TENCENT_MAP_KEY: variable.text('A Tencent location service key (WebServiceAPI); unset: its calls answer not configured', { pattern: TENCENT_KEY }),
  TENCENT_MAP_SK: variable.text('The key\'s secret key (SK), when the key has signature checking on', { pattern: TENCENT_SK }),
  TENCENT_MAP_API_BASE: variable.url('Base of the Tencent location service', 'https://apis.map.qq.com'),
  AMAP_KEY: variable.text('An AMap web service key; unset: its calls answer not configured, IP location uses the offline database', { pattern: AMAP_KEY }),
  AMAP_API_BASE: variable.url('Base of the AMap web service', 'https://restapi.amap.com'),
  MAP_PROVIDER: variable.oneOf(['tencent', 'amap'], 'Whose driving routes and map the pickup points and events use (its key must be set); unset: Tencent when its key is set, else AMap'),
  TENCENT_MAP_JS_KEY: variable.text('A browser key of Tencent\'s JavaScript API GL, for the H5 map; unset: H5 has no map', { pattern: TENCENT_KEY }),
  TENCENT_MAP_JS_URL: variable.url('Where the JavaScript API GL\'s script is', 'https://map.qq.com/api/gljs')
}

/** Map providers: the Tencent location service and the AMap web service (each off without its key). */
export interface MapsConfig {
  /** TENCENT_MAP_KEY, and TENCENT_MAP_SK when the key has signature checking on (sig = md5 of path, sorted query and SK). */
  tencent?: { key: string; sk?: string }
  tencentApiBase: string
  /** AMAP_KEY (web service key). Without it the IP location answers from the offline database. */
  amap?: { key: string }
  amapApiBase: string
  /**
   * Whose driving routes and map the app uses for pickup points and events: MAP_PROVIDER=tencent or
   * amap (its key must be set); by default Tencent when its key is set, else AMap; null: neither.
   */
  routeProvider: 'tencentMap' | 'amap' | null
  /**
   * TENCENT_MAP_JS_KEY: a browser key of Tencent's JavaScript API GL (restricted to the shop's domains
   * in the provider's console), for the H5 map; TENCENT_MAP_JS_URL: where its script is (a local fake in tests).
   */
  webMap: { script: string } | null
}

/** TENCENT_MAP_KEY (+ TENCENT_MAP_SK), AMAP_KEY, MAP_PROVIDER, TENCENT_MAP_JS_*, and the *_API_BASE (local fakes in tests). */
export function parseMaps (env: Reader<keyof typeof mapsVariables>, problems: Problems): MapsConfig {
  const tencentApiBase = apiBase(env, 'TENCENT_MAP_API_BASE', problems)
  const amapApiBase = apiBase(env, 'AMAP_API_BASE', problems)
  const tencentKey = env.get('TENCENT_MAP_KEY')
  const tencentSk = env.get('TENCENT_MAP_SK')
  if (tencentKey && !TENCENT_KEY.test(tencentKey)) problems.push('TENCENT_MAP_KEY must be a Tencent location service key (e.g. OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77)')
  if (tencentSk && !tencentKey) problems.push('TENCENT_MAP_SK is set but TENCENT_MAP_KEY is not')
  if (tencentSk && !TENCENT_SK.test(tencentSk)) problems.push('TENCENT_MAP_SK must be the key\'s secret key (SK: letters and digits)')
  const amapKey = env.get('AMAP_KEY')
  if (amapKey && !AMAP_KEY.test(amapKey)) problems.push('AMAP_KEY must be an AMap web service key (32 letters and digits)')
  const preferred = env.get('MAP_PROVIDER')
  let routeProvider: MapsConfig['routeProvider'] = tencentKey ? 'tencentMap' : amapKey ? 'amap' : null
  if (preferred !== undefined && preferred !== '') {
    if (preferred === 'tencent' && !tencentKey) problems.push('MAP_PROVIDER=tencent needs TENCENT_MAP_KEY')
    else if (preferred === 'amap' && !amapKey) problems.push('MAP_PROVIDER=amap needs AMAP_KEY')
    else if (preferred !== 'tencent' && preferred !== 'amap') problems.push(`MAP_PROVIDER must be tencent or amap (got ${JSON.stringify(preferred)})`)
    else routeProvider = preferred === 'tencent' ? 'tencentMap' : 'amap'
  }
  const jsKey = env.get('TENCENT_MAP_JS_KEY')
  const jsUrl = apiBase(env, 'TENCENT_MAP_JS_URL', problems)
  if (jsKey && !TENCENT_KEY.test(jsKey)) problems.push('TENCENT_MAP_JS_KEY must be a Tencent JavaScript API GL key (e.g. OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77)')
  return {
    tencent: tencentKey ? { key: tencentKey, ...(tencentSk ? { sk: tencentSk } : {}) } : undefined,
    tencentApiBase,
    amap: amapKey ? { key: amapKey } : undefined,
    amapApiBase,
    routeProvider,
    webMap: jsKey ? { script: `${jsUrl}?v=1.exp&key=${encodeURIComponent(jsKey)}` } : null
  }
}
