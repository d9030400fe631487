/**
 * China's provinces, cities and districts (issue 48): the web app's 省市区 picker reads them from the
 * server a level at a time, so its bundle carries none of them (the mini-program has WeChat's own
 * `<picker mode="region">`). The shop's copy is GB/T 2260 as published in the MIT-licensed
 * @vant/area-data 2.1.0 (server/src/domain/account/regions.json: code -> name).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { Obj } from './schema'

/** Six digits: 110000 a province, 110100 a city, 110105 a district. */
export const RegionCode = Type.String({ pattern: '^[1-9][0-9]{5}$' })

export const RegionListRequest = Obj({
  /** Absent: the provinces; a province's code: its cities; a city's code: its districts. */
  parent: Type.Optional(RegionCode)
})
export type RegionListRequest = Static<typeof RegionListRequest>
export const RegionEntry = Type.Object({ code: Type.String(), name: Type.String() })
export type RegionEntry = Static<typeof RegionEntry>
export const RegionList = Type.Object({ list: Type.Array(RegionEntry) })
export type RegionList = Static<typeof RegionList>

/** A picked region (an address's `area`): each part as its list names it. */
const Part = Type.String({ minLength: 1, maxLength: 40 })
export const RegionParts = Obj({ province: Part, city: Part, district: Part })
export type RegionParts = Static<typeof RegionParts>

export const regionRoutes = {
  regions: route({
    method: 'POST', url: '/api/regions', auth: 'none', tag: 'addresses', body: RegionListRequest, data: RegionList,
    summary: 'Provinces, a province\'s cities or a city\'s districts (the web app\'s region picker)',
    description: 'An unknown parent answers an empty list.'
  })
}
