/**
 * Where the user is (spec 3, 8, 9): the device's position in GCJ-02 (the coordinates Chinese map
 * providers use), within GEOLOCATION_TIMEOUT_MS; when that fails, is refused or takes too long, the IP
 * location: the centre of the returned rectangle, with an accuracy of FALLBACK_LOCATION_ACCURACY_M.
 *
 * The mini-program asks Taro.getLocation({type: 'gcj02'}). Taro's H5 getLocation only does 'wgs84'
 * (it fails any other type), so H5 asks for WGS-84 and converts it to GCJ-02 here.
 */
import Taro from '@tarojs/taro'
import { isH5 } from '@/config'
import { FALLBACK_LOCATION_ACCURACY_M, GEOLOCATION_TIMEOUT_MS } from '@/constants'
import { geoApi, rectangleCentre } from '@/services/geo'
import { refusalOf } from '@/utils/permission'

/** A position (spec 3's location fields), and where it came from. */
export interface Located {
  latitude: number
  longitude: number
  speed: number
  altitude: number
  horizontalAccuracy: number
  /** 'device': the platform's location; 'ip': the centre of the IP location's city box. */
  source: 'device' | 'ip'
  /**
   * Why the device's position was not had, when the user said no (issue 22): 'scope', the location scope
   * refused in WeChat (the settings can turn it back on); 'privacy', the privacy prompt declined.
   */
  refused?: 'scope' | 'privacy'
}

/** Neither the device nor the IP location could place the user. */
export class LocationError extends Error {
  /** As Located.refused: the user refused the device's position before the IP location failed too. */
  refused?: 'scope' | 'privacy'

  constructor (message: string, readonly cause?: unknown) {
    super(message)
    this.name = 'LocationError'
  }
}

// ---- WGS-84 to GCJ-02 (the published conversion; no change outside mainland China) -----------------

const A = 6378245.0
const EE = 0.006693421622965943

const outOfChina = (lat: number, lng: number) => lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271

function shiftLat (x: number, y: number): number {
  let r = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x))
  r += (20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2 / 3
  r += (20 * Math.sin(y * Math.PI) + 40 * Math.sin(y / 3 * Math.PI)) * 2 / 3
  r += (160 * Math.sin(y / 12 * Math.PI) + 320 * Math.sin(y * Math.PI / 30)) * 2 / 3
  return r
}

function shiftLng (x: number, y: number): number {
  let r = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x))
  r += (20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2 / 3
  r += (20 * Math.sin(x * Math.PI) + 40 * Math.sin(x / 3 * Math.PI)) * 2 / 3
  r += (150 * Math.sin(x / 12 * Math.PI) + 300 * Math.sin(x / 30 * Math.PI)) * 2 / 3
  return r
}

export function wgs84ToGcj02 (latitude: number, longitude: number): { latitude: number; longitude: number } {
  if (outOfChina(latitude, longitude)) return { latitude, longitude }
  const radLat = latitude / 180 * Math.PI
  let magic = Math.sin(radLat)
  magic = 1 - EE * magic * magic
  const sqrtMagic = Math.sqrt(magic)
  const dLat = (shiftLat(longitude - 105, latitude - 35) * 180) / ((A * (1 - EE)) / (magic * sqrtMagic) * Math.PI)
  const dLng = (shiftLng(longitude - 105, latitude - 35) * 180) / (A / sqrtMagic * Math.cos(radLat) * Math.PI)
  return { latitude: latitude + dLat, longitude: longitude + dLng }
}

// ---- locate ------------------------------------------------------------------------------------------

function withTimeout<T> (promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new LocationError(`getLocation: no position within ${ms} ms`)), ms)
    promise.then(
      v => { clearTimeout(timer); resolve(v) },
      e => { clearTimeout(timer); reject(e) }
    )
  })
}

const finite = (n: unknown) => typeof n === 'number' && Number.isFinite(n) ? n : 0

async function devicePosition (timeoutMs: number): Promise<Located> {
  const h5 = isH5()
  const res = await Taro.getLocation(h5 ? { type: 'wgs84', highAccuracyExpireTime: timeoutMs } : { type: 'gcj02' })
  if (!Number.isFinite(res.latitude) || !Number.isFinite(res.longitude)) throw new LocationError('getLocation: no coordinates')
  const at = h5 ? wgs84ToGcj02(res.latitude, res.longitude) : { latitude: res.latitude, longitude: res.longitude }
  return {
    ...at,
    speed: finite(res.speed),
    altitude: finite(res.altitude),
    horizontalAccuracy: finite(res.horizontalAccuracy ?? res.accuracy),
    source: 'device'
  }
}

/** The IP location (the server's offline database, or AMap): the centre of its rectangle. */
export async function locateByIp (): Promise<Located> {
  let rectangle: string
  try {
    rectangle = (await geoApi.amapIpLocation()).rectangle
  } catch (e) {
    throw new LocationError('IP location failed', e)
  }
  const centre = rectangleCentre(rectangle)
  if (!centre) throw new LocationError('IP location: the address could not be placed')
  return { ...centre, speed: 0, altitude: 0, horizontalAccuracy: FALLBACK_LOCATION_ACCURACY_M, source: 'ip' }
}

/**
 * The user's position: the device's (GCJ-02) within the geolocation timeout, else the IP location.
 * Rejects with a LocationError when neither works.
 */
export async function locate (options: { timeoutMs?: number } = {}): Promise<Located> {
  const timeoutMs = options.timeoutMs ?? GEOLOCATION_TIMEOUT_MS
  let refused: Located['refused']
  try {
    return await withTimeout(devicePosition(timeoutMs), timeoutMs)
  } catch (e) {
    // refused, failed, unsupported or too slow: the IP location (spec 8). A refusal is remembered, so the
    // page can say "you have denied authorization" and offer the settings (scope) or ask again (privacy).
    const why = refusalOf(e)
    if (why === 'scope' || why === 'privacy') refused = why
  }
  try {
    const at = await locateByIp()
    return refused ? { ...at, refused } : at
  } catch (e) {
    if (e instanceof LocationError) e.refused = refused
    throw e
  }
}
