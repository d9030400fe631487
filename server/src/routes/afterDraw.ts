/**
 * After the draw (types/afterDraw.ts): the address book, the collection, recycling, shipments with the
 * spec's /generalOrder/deliver (operator) and /generalOrder/confirm, the authenticity check, and the
 * operator's shipment queue, packing slips and shop settings.
 */
import { randomBytes } from 'node:crypto'
import { addressRoutes as a, afterDrawRoutes as r, operatorRoutes as o } from '../../../types/afterDraw'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { XLSX_MIME } from '../data/xlsx'
import { prizeWorkbook } from '../data/prizeExport'
import { deleteAddress, listAddresses, saveAddress, setDefaultAddress } from '../domain/prizes/addresses'
import {
  collectionSummary, confirmShipment, createShipment, deliverShipment, listShipments, operatorShipments, ownShipment,
  packingSlip, recyclePrizes, shippingRule, verifyPrize
} from '../domain/prizes/afterDraw'
import { saveSettings, settingsOf } from '../domain/ops/settings'
import { allPoints, handPrize, nearbyPoints, pointDirectory, savePoint } from '../domain/prizes/pickup'
import { operatorShipment } from '../domain/prizes/afterDraw'

export function afterDrawRoutes (app: Api, ctx: AppContext): void {
  const { db, dialect, clock } = ctx

  defineRoute(app, ctx, a.list, async ({ userId }) => listAddresses(db, userId))
  defineRoute(app, ctx, a.save, async ({ body, userId }) => saveAddress(db, dialect, clock, userId, body))
  defineRoute(app, ctx, a.remove, async ({ body, userId }) => deleteAddress(db, dialect, userId, body.id))
  defineRoute(app, ctx, a.setDefault, async ({ body, userId }) => setDefaultAddress(db, dialect, clock, userId, body.id))

  defineRoute(app, ctx, r.collection, async ({ userId }) => collectionSummary(db, userId))
  defineRoute(app, ctx, r.prizeExport, async ({ request, reply, body, userId }) => {
    const file = await prizeWorkbook(db, userId, request.locale, body.status)
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', `attachment; filename="prizes-${randomBytes(4).toString('hex')}.xlsx"`)
      .send(file)
  })
  defineRoute(app, ctx, r.recycle, async ({ body, userId }) => recyclePrizes(ctx, userId, body))
  defineRoute(app, ctx, r.pickupNearby, async ({ body }) =>
    nearbyPoints(db, body, body.page ?? 1, ctx.config.maps.routeProvider, ctx.config.maps.webMap))
  defineRoute(app, ctx, r.pickupDirectory, async () => pointDirectory(db))
  defineRoute(app, ctx, r.shippingRule, async () => shippingRule(db))
  defineRoute(app, ctx, r.shipmentCreate, async ({ body, userId }) => {
    const { result, replayed } = await createShipment(ctx, userId, body)
    // after the commit, once: the operators' robots hear of it (a replay alerts nobody)
    if (!replayed) ctx.alerts.shipmentRequested(result.shipment, userId)
    return result
  })
  defineRoute(app, ctx, r.shipmentList, async ({ body, userId }) => listShipments(db, clock, userId, body.page, body.size, body.status))
  defineRoute(app, ctx, r.shipmentDetail, async ({ body, userId }) => ownShipment(db, clock, userId, body.shipmentId))
  defineRoute(app, ctx, r.confirm, async ({ body, userId }) => confirmShipment(db, clock, userId, body.shipmentId))
  defineRoute(app, ctx, r.prizeVerify, async ({ body }) => verifyPrize(db, body.prizeId, body.code))

  defineRoute(app, ctx, o.deliver, async ({ body, userId }) => deliverShipment(db, clock, userId, body.shipmentId, body.carrier, body.trackingNo))
  defineRoute(app, ctx, o.shipments, async ({ body }) => operatorShipments(db, clock, body.page, body.size, body.status))
  defineRoute(app, ctx, o.packingSlip, async ({ request, body }) => packingSlip(db, body.shipmentId, `${request.protocol}://${request.host}`))
  defineRoute(app, ctx, o.settings, async () => settingsOf(db))
  defineRoute(app, ctx, o.saveSettings, async ({ body, userId }) => saveSettings(db, clock, userId, body))
  defineRoute(app, ctx, o.pickupPoints, async () => allPoints(db))
  defineRoute(app, ctx, o.pickupPointSave, async ({ body, userId }) => savePoint(db, clock, userId, body))
  defineRoute(app, ctx, o.pickupHand, async ({ body, userId }) => operatorShipment(db, await handPrize(db, clock, userId, body.prizeId, body.code)))
}
