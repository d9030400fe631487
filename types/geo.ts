/**
 * Maps and places (spec 3, 5, 7, 8): reverse and forward geocoding, nearby places and driving routes
 * through the Tencent location service (ws/geocoder/v1, ws/place/v1, ws/direction/v1), the same
 * through the AMap web service (v3 geocode/geo, geocode/regeo, direction/driving), and the IP
 * location (AMap v3/ip when AMAP_KEY is set, else the offline IP database the server ships).
 *
 * Every call needs a logged-in user (they spend the provider's quota) and counts against a per-user
 * limit (429). Coordinates are GCJ-02 (what Taro.getLocation({type: 'gcj02'}) and both providers use),
 * in degrees; distances in metres; durations in seconds.
 *
 * Failures besides the usual 400/401/429:
 *  - 422 `{provider}` when the provider is not configured (no key): data `{provider: 'tencentMap' | 'amap'}`;
 *  - 422 with the provider's own message when it refuses the request (Tencent status non-zero, AMap
 *    status "0"): data `{provider, status}` (spec 8: the geocoder reports the server message);
 *  - HTTP 502 with the envelope `{code: 502, data: {provider}}` when the provider cannot be reached or
 *    answers nonsense (an outage, as for the other providers).
 * Spec 5's checks answer 400 naming the field: a reverse geocode without both coordinates "Missing
 * latitude or longitude", an address geocode without an address "Missing address", a nearby search
 * without coordinates "必须提供经纬度参数" (each in the caller's language; the app checks the same first).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { GEO_LIMITS } from './limits'
import { Nullable, Obj, StringEnum, Text } from './schema'

export { GEO_LIMITS } from './limits'

const Latitude = Type.Number({ minimum: -90, maximum: 90, description: 'degrees, GCJ-02' })
const Longitude = Type.Number({ minimum: -180, maximum: 180, description: 'degrees, GCJ-02' })

/** A point in a request: both coordinates are needed, but a missing one is spec 5's message, not a schema error. */
export const PointInput = Obj({ latitude: Type.Optional(Latitude), longitude: Type.Optional(Longitude) })
export type PointInput = Static<typeof PointInput>

export const Point = Type.Object({ latitude: Type.Number(), longitude: Type.Number() })
export type Point = Static<typeof Point>

/** Province, city and district as the provider names them ('' when it gives none; a municipality's city is its own name). */
export const Region = Type.Object({ province: Type.String(), city: Type.String(), district: Type.String() })
export type Region = Static<typeof Region>

export const MapProvider = StringEnum(['tencentMap', 'amap'] as const)
export type MapProvider = Static<typeof MapProvider>

// ---- Tencent: geocoding and places ------------------------------------------------------------------

export const GeocoderRequest = Obj({
  location: Type.Optional(Text({ maxLength: 64, description: "'lat,lng', e.g. '39.984154,116.307490'" }))
})
export type GeocoderRequest = Static<typeof GeocoderRequest>

/** A reverse geocode: the address at a point. */
export const ReverseGeocode = Type.Object({
  ...Point.properties,
  /** The full address, e.g. 北京市海淀区北四环西路66号. */
  address: Type.String(),
  /** The provider's friendlier description, e.g. 海淀区中关村中国技术交易大厦(彩和坊路); the address when none. */
  recommend: Type.String(),
  region: Region,
  /** The address without the region, for an address form's detail line, e.g. 北四环西路66号. */
  detail: Type.String(),
  street: Type.String(),
  streetNumber: Type.String(),
  /** Administrative division code of the district ('' when unknown). */
  adcode: Type.String(),
  nation: Type.String()
})
export type ReverseGeocode = Static<typeof ReverseGeocode>

export const GeoAddressRequest = Obj({
  address: Type.Optional(Text({ maxLength: GEO_LIMITS.addressMax, description: 'An address or place name, with its city for a better match' }))
})
export type GeoAddressRequest = Static<typeof GeoAddressRequest>

/** A forward geocode: the point of an address. */
export const AddressGeocode = Type.Object({
  ...Point.properties,
  title: Type.String(),
  region: Region,
  detail: Type.String(),
  street: Type.String(),
  streetNumber: Type.String(),
  adcode: Type.String(),
  /** How sure the provider is, 1-10 (7 and above: good enough to deliver to). */
  reliability: Type.Integer(),
  /** How precise the point is (Tencent's level: 1 country ... 9-11 building / point of interest). */
  level: Type.Integer()
})
export type AddressGeocode = Static<typeof AddressGeocode>

export const MapSearchRequest = Obj({
  boundary: Type.Optional(Text({
    maxLength: 80,
    description: `'nearby(lat,lng)' or 'nearby(lat,lng,radius)'; radius in metres, default ${GEO_LIMITS.defaultNearbyRadius}, kept within ${GEO_LIMITS.minNearbyRadius}-${GEO_LIMITS.maxNearbyRadius}`
  })),
  keyword: Type.Optional(Text({ maxLength: GEO_LIMITS.keywordMax, description: 'Without one: the places around the point (Tencent place/v1/explore)' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: GEO_LIMITS.placePageMax })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: GEO_LIMITS.placePageSizeMax, description: 'default 20' }))
})
export type MapSearchRequest = Static<typeof MapSearchRequest>

/** A nearby place: the provider's location.lat / location.lng become latitude / longitude (spec 3). */
export const Place = Type.Object({
  id: Type.String(),
  title: Type.String(),
  address: Type.String(),
  category: Type.String(),
  ...Point.properties,
  /** Metres from the search point, when the provider says. */
  distance: Nullable(Type.Number()),
  region: Region,
  adcode: Type.String()
})
export type Place = Static<typeof Place>

export const PlaceList = Type.Object({
  list: Type.Array(Place),
  /** How many places the provider has for the search (it pages at most 20 at a time). */
  total: Type.Integer({ minimum: 0 })
})
export type PlaceList = Static<typeof PlaceList>

// ---- routes (both providers answer the same shape) ----------------------------------------------------

export const DrivingRequest = Obj({
  from: Type.Optional(PointInput),
  to: Type.Optional(PointInput)
})
export type DrivingRequest = Static<typeof DrivingRequest>

export const AmapDrivingRequest = Obj({
  origin: Type.Optional(PointInput),
  destination: Type.Optional(PointInput)
})
export type AmapDrivingRequest = Static<typeof AmapDrivingRequest>

export const RouteStep = Type.Object({
  instruction: Type.String(),
  road: Type.String(),
  /** metres */
  distance: Type.Number(),
  /**
   * [first, last]: indices into the route's `polyline` (points, both ends included) of this step's
   * stretch. Tencent gives them as polyline_idx into its flat coordinate list; they are halved here.
   */
  polylineIdx: Type.Tuple([Type.Integer({ minimum: 0 }), Type.Integer({ minimum: 0 })])
})
export type RouteStep = Static<typeof RouteStep>

export const DrivingRoute = Type.Object({
  /** metres */
  distance: Type.Number(),
  /** seconds */
  duration: Type.Number(),
  /** The whole route, decompressed (Tencent) or joined from the steps (AMap). */
  polyline: Type.Array(Point),
  steps: Type.Array(RouteStep)
})
export type DrivingRoute = Static<typeof DrivingRoute>

// ---- AMap ------------------------------------------------------------------------------------------

export const AmapGeoRequest = Obj({
  address: Type.Optional(Text({ maxLength: GEO_LIMITS.addressMax })),
  city: Type.Optional(Text({ maxLength: 40, description: 'Narrows the search: a city name, its adcode or citycode' }))
})
export type AmapGeoRequest = Static<typeof AmapGeoRequest>

export const AmapGeocode = Type.Object({
  formattedAddress: Type.String(),
  region: Region,
  adcode: Type.String(),
  ...Point.properties,
  /** AMap's level, e.g. 门牌号, 兴趣点, 区县. */
  level: Type.String()
})
export type AmapGeocode = Static<typeof AmapGeocode>
export const AmapGeoList = Type.Object({ list: Type.Array(AmapGeocode) })
export type AmapGeoList = Static<typeof AmapGeoList>

export const AmapRegeocodeRequest = PointInput
export type AmapRegeocodeRequest = PointInput

export const AmapRegeocode = Type.Object({
  formattedAddress: Type.String(),
  region: Region,
  detail: Type.String(),
  township: Type.String(),
  street: Type.String(),
  streetNumber: Type.String(),
  adcode: Type.String()
})
export type AmapRegeocode = Static<typeof AmapRegeocode>

export const IpLocationRequest = Obj({
  ip: Type.Optional(Text({ maxLength: GEO_LIMITS.ipMax, description: "An IPv4 or IPv6 address; default: the caller's" }))
})
export type IpLocationRequest = Static<typeof IpLocationRequest>

/** Where an IP address is, to a city; AMap's shape. */
export const IpLocation = Type.Object({
  ip: Type.String(),
  province: Type.String(),
  city: Type.String(),
  adcode: Type.String(),
  /**
   * 'lng1,lat1;lng2,lat2': south-west and north-east corners of the city's box (AMap's `rectangle`);
   * '' when the address cannot be placed (outside China, a private or local address). The app takes its
   * centre, with an accuracy of 1000 m (spec 8).
   */
  rectangle: Type.String(),
  /** AMap's v3/ip (AMAP_KEY set) or the offline database the server ships. */
  source: StringEnum(['amap', 'offline'] as const)
})
export type IpLocation = Static<typeof IpLocation>

// ---- the calls -------------------------------------------------------------------------------------

const tag = 'maps'

export const geoRoutes = {
  geocoder: route({
    method: 'POST', url: '/api/geocoder', auth: 'user', tag, body: GeocoderRequest, data: ReverseGeocode,
    summary: 'Reverse geocode a point (Tencent)',
    description: "location 'lat,lng'. Without both coordinates: 400 \"Missing latitude or longitude\". A non-zero Tencent status: 422 with Tencent's message."
  }),
  geoaddress: route({
    method: 'POST', url: '/api/geoaddress', auth: 'user', tag, body: GeoAddressRequest, data: AddressGeocode,
    summary: 'Geocode an address (Tencent)',
    description: 'Without an address: 400 "Missing address". Tencent finds nothing: 422 with its message (347).'
  }),
  mapsearch: route({
    method: 'POST', url: '/api/mapsearch', auth: 'user', tag, body: MapSearchRequest, data: PlaceList,
    summary: 'Places near a point (Tencent)',
    description: 'boundary nearby(lat,lng[,radius]); without a point: 400 "必须提供经纬度参数". With a keyword: place/v1/search; without: place/v1/explore.'
  }),
  driving: route({
    method: 'POST', url: '/api/driving', auth: 'user', tag, body: DrivingRequest, data: DrivingRoute,
    summary: 'A driving route (Tencent)',
    description: 'from and to {latitude, longitude}; either missing: 400 "Missing latitude or longitude".'
  }),
  amapGeo: route({
    method: 'POST', url: '/api/amap_geo', auth: 'user', tag, body: AmapGeoRequest, data: AmapGeoList,
    summary: 'Geocode an address (AMap)',
    description: 'Without an address: 400 "Missing address".'
  }),
  amapRegeocode: route({
    method: 'POST', url: '/api/amap_regeocode', auth: 'user', tag, body: AmapRegeocodeRequest, data: AmapRegeocode,
    summary: 'Reverse geocode a point (AMap)',
    description: 'Either coordinate missing: 400 "Missing latitude or longitude".'
  }),
  amapIpLocation: route({
    method: 'POST', url: '/api/amap_ip_location', auth: 'user', tag, body: IpLocationRequest, data: IpLocation,
    summary: 'Where an IP address is, to a city',
    description: "The caller's address unless ip is given. AMap v3/ip when AMAP_KEY is set, else the offline database (works without any key)."
  }),
  amapDirectionDriving: route({
    method: 'POST', url: '/api/amap_direction_driving', auth: 'user', tag, body: AmapDrivingRequest, data: DrivingRoute,
    summary: 'A driving route (AMap)',
    description: 'origin and destination {latitude, longitude}; either missing: 400 "Missing latitude or longitude".'
  })
} as const
