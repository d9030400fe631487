/** The long-press helper (350 ms, 10 px) and the component interaction helper with the spec's messages. */
import { callComponent, ComponentCallError } from '@/pagesA/blind_box_detail/componentCall'
import { LONG_PRESS_MS, LONG_PRESS_TOLERANCE_PX, longPress } from '@/pagesA/blind_box_detail/longPress'
import { localeStore } from '@/stores/locale'

const at = (x: number, y: number) => ({ touches: [{ clientX: x, clientY: y }], changedTouches: [{ clientX: x, clientY: y }] })

describe('long press', () => {
  beforeEach(() => { jest.useFakeTimers() })
  afterEach(() => { jest.useRealTimers() })

  test('held 350 ms within 10 px: a long press and no tap', () => {
    const onLongPress = jest.fn()
    const onTap = jest.fn()
    const h = longPress({ onLongPress, onTap })
    h.onTouchStart(at(100, 100))
    h.onTouchMove(at(106, 107)) // 9.2 px: still within the tolerance
    jest.advanceTimersByTime(LONG_PRESS_MS - 1)
    expect(onLongPress).not.toHaveBeenCalled()
    jest.advanceTimersByTime(1)
    expect(onLongPress).toHaveBeenCalledTimes(1)
    h.onTouchEnd(at(106, 107))
    expect(onTap).not.toHaveBeenCalled()
  })

  test('lifted early: a tap; moved past 10 px: neither; cancelled: neither', () => {
    const onLongPress = jest.fn()
    const onTap = jest.fn()
    const h = longPress({ onLongPress, onTap })
    h.onTouchStart(at(0, 0))
    jest.advanceTimersByTime(200)
    h.onTouchEnd(at(0, 0))
    expect(onTap).toHaveBeenCalledTimes(1)
    jest.advanceTimersByTime(1000)
    expect(onLongPress).not.toHaveBeenCalled()

    h.onTouchStart(at(0, 0))
    h.onTouchMove(at(LONG_PRESS_TOLERANCE_PX + 1, 0))
    jest.advanceTimersByTime(1000)
    h.onTouchEnd(at(11, 0))
    expect(onLongPress).not.toHaveBeenCalled()
    expect(onTap).toHaveBeenCalledTimes(1)

    h.onTouchStart(at(0, 0))
    h.onTouchCancel()
    jest.advanceTimersByTime(1000)
    expect(onLongPress).not.toHaveBeenCalled()
  })
})

describe('component interaction', () => {
  const refs = { sheet: { current: { open (slot: number) { return `opened ${slot}` }, size: 3 } }, empty: { current: null } }

  test('calls the method with its arguments', () => {
    expect(callComponent(refs, 'sheet', 'open', 7)).toBe('opened 7')
  })

  test('the spec\'s messages: refName and action are required; instance not found; no such method', () => {
    localeStore.setLocale('en')
    const fails = (f: () => unknown) => { try { f() } catch (e) { return e as ComponentCallError } throw new Error('no error') }
    expect(fails(() => callComponent(refs, '', 'open')).message).toBe('refName and action are required')
    expect(fails(() => callComponent(refs, 'sheet', undefined)).reason).toBe('required')
    expect(fails(() => callComponent(refs, 'empty', 'open')).message).toBe('component instance not found: empty')
    expect(fails(() => callComponent(refs, 'missing', 'open')).reason).toBe('notFound')
    expect(fails(() => callComponent(refs, 'sheet', 'size')).message).toBe('component has no such method: sheet.size')
    localeStore.setLocale('zh')
    expect(fails(() => callComponent(refs, 'sheet', '')).message).toBe('refName 和 action 不能为空')
  })
})
