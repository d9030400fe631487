/** Zoom arithmetic of the image preview (spec 9: zoom 1 to 4), kept apart from the component to be tested. */
import { IMAGE_PREVIEW_ZOOM_MAX, IMAGE_PREVIEW_ZOOM_MIN } from '@/constants'

export const clampZoom = (z: number): number =>
  Number.isFinite(z) ? Math.min(IMAGE_PREVIEW_ZOOM_MAX, Math.max(IMAGE_PREVIEW_ZOOM_MIN, z)) : IMAGE_PREVIEW_ZOOM_MIN

/** A button step: half a step at a time, and never outside the range. */
export const stepZoom = (z: number, dir: 1 | -1): number => clampZoom(Math.round((z + dir * 0.5) * 2) / 2)

/** A double tap toggles between fit and twice the size (from any zoom above fit, back to fit). */
export const doubleTapZoom = (z: number): number => (z > IMAGE_PREVIEW_ZOOM_MIN ? IMAGE_PREVIEW_ZOOM_MIN : clampZoom(2))

interface Point { clientX: number; clientY: number }
export const touchDistance = (a: Point, b: Point): number => Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY)

/** The zoom during a pinch: the zoom at its start times how far the fingers moved apart. */
export const pinchZoom = (startZoom: number, startDistance: number, distance: number): number =>
  startDistance > 0 ? clampZoom(startZoom * distance / startDistance) : clampZoom(startZoom)
