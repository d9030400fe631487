/**
 * The waiting room's asks (src/pagesA/blind_box_detail/QueuePanel.tsx): the first answers at once (the
 * place shows); in line, each next ask is held by the server (waitMs) with the place last shown
 * (seenPosition), so that a place given since is told at once; asked again as each answer says (pollMs).
 * The typed call is spied on; time is Jest's.
 */
import { act, cleanup, render } from '@testing-library/react'
import type { QueueView } from '~types/drop'
import { dropsApi } from '@/services/drops'
import { localeStore } from '@/stores/locale'
import QueuePanel from '@/pagesA/blind_box_detail/QueuePanel'

const view = (over: Partial<QueueView>): QueueView => ({
  dropId: 3, state: 'early', position: null, ahead: null, waitSeconds: null, shoppingUntil: null, turnSeconds: 300,
  startsAt: '2026-11-28T12:00:00.000Z', orderAt: '2026-11-28T12:00:10.000Z', lot: 'ab'.repeat(32), seedHash: 'cd'.repeat(32),
  seed: null, boxesLeft: 12, allHeld: false, pollMs: 5000, ...over
})
const tick = (ms: number) => act(async () => { await jest.advanceTimersByTimeAsync(ms) })

beforeEach(() => { jest.useFakeTimers() })
afterEach(() => {
  cleanup()
  jest.useRealTimers()
  jest.restoreAllMocks()
  localeStore.setLocale('zh')
})

test('first at once; then held with the place last shown, as each answer says', async () => {
  localeStore.setLocale('en')
  const answers = [
    view({ state: 'early', pollMs: 5000 }),
    view({ state: 'waiting', position: 40, ahead: 39, waitSeconds: 300, seed: 'ef'.repeat(32), pollMs: 0 }),
    view({ state: 'waiting', position: 40, ahead: 12, waitSeconds: 60, seed: 'ef'.repeat(32), pollMs: 0 })
  ]
  const asked = jest.spyOn(dropsApi, 'queue').mockImplementation(async () => answers.shift() ?? view({ state: 'sold_out', boxesLeft: 0 }))
  const { container } = render(<QueuePanel seriesId={7} dropId={3} hasCase={false} onTurn={() => {}} />)
  await tick(0)
  expect(asked.mock.calls[0]).toEqual([3, 0, null])
  expect(container.querySelector('.queue-panel--early')).not.toBeNull()
  // early: asked again after pollMs, held, no place shown yet
  await tick(4999)
  expect(asked).toHaveBeenCalledTimes(1)
  await tick(1)
  expect(asked.mock.calls[1]).toEqual([3, 25000, null])
  expect(container.querySelector('.queue-panel__position')?.textContent).toContain('40')
  // told place 40: the next ask (at once, pollMs 0) is held with it
  await tick(0)
  expect(asked.mock.calls[2]).toEqual([3, 25000, 40])
  expect(container.querySelector('.queue-panel__ahead')?.textContent).toContain('12')
})
