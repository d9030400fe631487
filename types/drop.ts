/**
 * Drops (issue 50; docs/decisions/drops.md): a limited run of a series. Every case of a drop is made,
 * shuffled and committed when the operator creates it, exactly `hiddenCases` of its `cases` carry the
 * hidden design, and one root commitment over the cases' commitments is published before the sale:
 *
 *   root = sha256_hex(`drop:${dropId}:${case commitments in ascending case id, joined by ','}`)
 *
 * So the shop cannot add, remove or swap a case once the root is shown. When the drop has sold out,
 * every case is revealed and the device recomputes each case's commitment, the root over them, and the
 * count of cases that held the hidden design (types/dropCheck.ts: the same code on the server and phone).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { DROP_LIMITS } from './limits'
import { Id, Nullable, Obj, Timestamp } from './schema'
import { CaseProof, DropInfo } from './shopParts/catalogue'

export { DropInfo, DropStatus } from './shopParts/catalogue'

export const DropProof = Type.Object({
  ...DropInfo.properties,
  /** The series' hidden design (null: the series has none). */
  hiddenDesignId: Nullable(Type.Integer()),
  /** Every case of the drop, ascending by id: commitments always, arrangements once revealed. */
  caseProofs: Type.Array(CaseProof)
})
export type DropProof = Static<typeof DropProof>

// ---- the operator's drop screen ----------------------------------------------------------------------

export const DropCreateRequest = Obj({
  seriesId: Id,
  cases: Type.Integer({ minimum: 1, maximum: DROP_LIMITS.casesMax }),
  /** Exactly how many cases carry the hidden design (0 when the series has none). */
  hiddenCases: Type.Integer({ minimum: 0, maximum: DROP_LIMITS.casesMax }),
  /** When the sale starts: now or later, at most DROP_LIMITS.startsAheadMaxDays ahead. */
  startsAt: Timestamp
})
export type DropCreateRequest = Static<typeof DropCreateRequest>

export const SeriesDrops = Type.Object({
  seriesId: Type.Integer(),
  /** The series' drops, newest first. */
  drops: Type.Array(DropInfo),
  /** The most cases a new drop can have: the free stock, with what the open cases made on demand hold (a drop retires them). */
  casesFillable: Type.Integer(),
  /** The hidden figures free (the most hidden cases a new drop can have). */
  hiddenFree: Type.Integer(),
  /** Whether the series has a hidden design. */
  hasHidden: Type.Boolean()
})
export type SeriesDrops = Static<typeof SeriesDrops>

export const DropIdRequest = Obj({ dropId: Id })
export const DropSeriesRequest = Obj({ seriesId: Id })

export const dropRoutes = {
  proof: route({
    method: 'POST', url: '/api/dropProof', auth: 'none', tag: 'cases', body: DropIdRequest, data: DropProof,
    summary: 'A drop\'s root commitment and its cases\' commitments; arrangements and salts once revealed'
  }),
  list: route({
    method: 'POST', url: '/api/operator/drops', auth: 'operator', tag: 'operator', body: DropSeriesRequest, data: SeriesDrops,
    summary: 'The drops of a series, and how large a new one the warehouse can fill'
  }),
  create: route({
    method: 'POST', url: '/api/operator/dropCreate', auth: 'operator', tag: 'operator', body: DropCreateRequest, data: DropInfo,
    summary: 'Make a drop: every case made, shuffled and committed now, and the root published (audited)',
    description: 'The series must be on sale with no drop still selling (409). Each regular and rare design needs a free figure per case, the hidden design one per hidden case (422 naming cases or hiddenCases). Open cases made on demand are retired and revealed: from now on the series sells only from drops.'
  })
}
