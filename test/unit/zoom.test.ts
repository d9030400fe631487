/** The image preview's zoom (spec 9: 1 to 4): buttons, double tap and pinch never leave the range. */
import { IMAGE_PREVIEW_ZOOM_MAX, IMAGE_PREVIEW_ZOOM_MIN } from '@/constants'
import { clampZoom, doubleTapZoom, pinchZoom, stepZoom, touchDistance } from '@/utils/zoom'

test('the range is 1 to 4', () => {
  expect([IMAGE_PREVIEW_ZOOM_MIN, IMAGE_PREVIEW_ZOOM_MAX]).toEqual([1, 4])
  expect(clampZoom(0.2)).toBe(1)
  expect(clampZoom(9)).toBe(4)
  expect(clampZoom(2.3)).toBe(2.3)
  expect(clampZoom(Number.NaN)).toBe(1)
})

test('buttons step by a half and stop at the ends', () => {
  let z = 1
  const seen: number[] = []
  for (let i = 0; i < 8; i++) { z = stepZoom(z, 1); seen.push(z) }
  expect(seen).toEqual([1.5, 2, 2.5, 3, 3.5, 4, 4, 4])
  expect(stepZoom(1, -1)).toBe(1)
  expect(stepZoom(2.3, -1)).toBe(2) // a pinched zoom lands on the half-step grid
})

test('a double tap goes to 2x from fit, and back to fit from any zoom', () => {
  expect(doubleTapZoom(1)).toBe(2)
  expect(doubleTapZoom(3.5)).toBe(1)
})

test('a pinch scales by the fingers\' distance, within the range', () => {
  const d0 = touchDistance({ clientX: 100, clientY: 100 }, { clientX: 200, clientY: 100 })
  expect(d0).toBe(100)
  expect(pinchZoom(1, d0, 250)).toBe(2.5)
  expect(pinchZoom(2, d0, 400)).toBe(4)
  expect(pinchZoom(2, d0, 10)).toBe(1)
  expect(pinchZoom(2, 0, 50)).toBe(2)
})
