import { AudioPlayer, AudioError, DURATION_RETRIES, DURATION_RETRY_MS, PLAY_WAIT_MAX_POLLS, PLAY_WAIT_POLL_MS, type AudioBackend } from '@/utils/audio'
import { localeStore } from '@/stores/locale'

/** A stand-in for the platform's InnerAudioContext that records calls and lets the test fire events. */
function backend (duration = 0) {
  const handlers: Record<string, (e?: unknown) => void> = {}
  const calls: string[] = []
  const b: AudioBackend & { fire: (n: string) => void; calls: string[]; setDuration: (d: number) => void } = {
    src: '', loop: false, volume: 1, currentTime: 0, duration,
    play: () => { calls.push('play') }, pause: () => calls.push('pause'), stop: () => calls.push('stop'),
    seek: (p: number) => calls.push(`seek:${p}`), destroy: () => calls.push('destroy'),
    onPlay: cb => { handlers.play = cb }, onPause: cb => { handlers.pause = cb }, onEnded: cb => { handlers.ended = cb },
    onTimeUpdate: cb => { handlers.timeupdate = cb }, onError: cb => { handlers.error = cb as never },
    fire: n => handlers[n]?.(), calls, setDuration: d => { (b as { duration: number }).duration = d }
  }
  return b
}

beforeEach(() => localeStore.setLocale('en'))
afterEach(() => jest.useRealTimers())

it('plays, pauses, ends and loops, with events', async () => {
  const b = backend(2.5)
  const p = new AudioPlayer({ src: '/open.wav', loop: true }, () => b)
  const seen: string[] = []
  for (const e of ['play', 'pause', 'ended'] as const) p.on(e, () => seen.push(e))
  expect(b.loop).toBe(true)
  await p.play()
  expect(p.state).toBe('playing')
  b.fire('play'); b.fire('pause'); b.fire('ended')
  expect(seen).toEqual(['play', 'pause', 'ended'])
  expect(p.state).toBe('ended')
})

it('clamps volume to 0..1 and seeking to 0..duration', () => {
  const b = backend(3)
  const p = new AudioPlayer({ src: 'a.mp3', volume: 7 }, () => b)
  expect(b.volume).toBe(1)
  expect(p.setVolume(-2)).toBe(0)
  expect(p.setVolume(0.4)).toBe(0.4)
  const sought: unknown[] = []
  p.on('seek', v => sought.push(v))
  expect(p.seek(10)).toBe(3)
  expect(p.seek(-1)).toBe(0)
  expect(sought).toEqual([3, 0])
})

it('reads the duration again up to 10 times, 300 ms apart', () => {
  jest.useFakeTimers()
  const b = backend(0)
  const p = new AudioPlayer({ src: 'a.mp3' }, () => b)
  const changes: unknown[] = []
  p.on('durationchange', d => changes.push(d))
  jest.advanceTimersByTime(DURATION_RETRY_MS * 3)
  b.setDuration(4.2)
  jest.advanceTimersByTime(DURATION_RETRY_MS)
  expect(changes).toEqual([4.2])
  const never = new AudioPlayer({ src: 'b.mp3' }, () => backend(0))
  jest.advanceTimersByTime(DURATION_RETRY_MS * (DURATION_RETRIES + 5))
  expect(never.duration).toBe(0)
  expect(DURATION_RETRIES).toBe(10)
  expect(DURATION_RETRY_MS).toBe(300)
})

it('refuses to play once destroyed, without a source, without play, or without a backend', async () => {
  const b = backend(1)
  const p = new AudioPlayer({ src: 'a.mp3' }, () => b)
  p.destroy()
  expect(b.calls).toContain('destroy')
  await expect(p.play()).rejects.toMatchObject({ code: 'destroyed', message: 'The audio player was destroyed' })
  await expect(new AudioPlayer({}, () => backend()).play()).rejects.toMatchObject({ code: 'noSource' })
  const noPlay = backend(1)
  delete noPlay.play
  await expect(new AudioPlayer({ src: 'x' }, () => noPlay).play()).rejects.toMatchObject({ code: 'noPlay' })
  await expect(new AudioPlayer({ src: 'x' }, () => null).play()).rejects.toMatchObject({ code: 'unavailable' })
})

describe('the mini-program play wait (spec 9: polls every 100 ms)', () => {
  const settled = (p: Promise<unknown>) => {
    const out = { done: false, error: null as unknown }
    p.then(() => { out.done = true }, e => { out.done = true; out.error = e })
    return out
  }
  const flush = async (ms: number) => { jest.advanceTimersByTime(ms); for (let i = 0; i < 5; i++) await Promise.resolve() }

  it('play resolves at the first poll after the platform plays (onPlay or paused false), not before', async () => {
    jest.useFakeTimers()
    expect(PLAY_WAIT_POLL_MS).toBe(100)
    const b = Object.assign(backend(1), { paused: true })
    const p = new AudioPlayer({ src: 'a.wav', waitForPlay: true }, () => b)
    const s = settled(p.play())
    await flush(PLAY_WAIT_POLL_MS * 3)
    expect(s.done).toBe(false)
    b.paused = false // the file loaded: InnerAudioContext plays
    await flush(PLAY_WAIT_POLL_MS - 1)
    expect(s.done).toBe(false)
    await flush(1)
    expect(s).toEqual({ done: true, error: null })

    const b2 = Object.assign(backend(1), { paused: true })
    const p2 = new AudioPlayer({ src: 'b.wav', waitForPlay: true }, () => b2)
    const s2 = settled(p2.play())
    await flush(250)
    b2.fire('play')
    await flush(PLAY_WAIT_POLL_MS)
    expect(s2).toEqual({ done: true, error: null })
    expect(p2.state).toBe('playing')
  })

  it('fails on an error, when destroyed meanwhile, and after 100 polls (10 s); H5 does not wait', async () => {
    jest.useFakeTimers()
    const b = Object.assign(backend(1), { paused: true })
    const p = new AudioPlayer({ src: 'a.wav', waitForPlay: true }, () => b)
    const s = settled(p.play())
    b.fire('error')
    await flush(PLAY_WAIT_POLL_MS)
    expect(s.error).toEqual(new AudioError('failed', 'The audio could not be played'))

    const d = new AudioPlayer({ src: 'd.wav', waitForPlay: true }, () => Object.assign(backend(1), { paused: true }))
    const sd = settled(d.play())
    d.destroy()
    await flush(PLAY_WAIT_POLL_MS)
    expect((sd.error as AudioError).code).toBe('destroyed')

    const never = new AudioPlayer({ src: 'n.wav', waitForPlay: true }, () => Object.assign(backend(1), { paused: true }))
    const sn = settled(never.play())
    await flush(PLAY_WAIT_POLL_MS * (PLAY_WAIT_MAX_POLLS - 1))
    expect(sn.done).toBe(false)
    await flush(PLAY_WAIT_POLL_MS)
    expect((sn.error as AudioError).code).toBe('failed')

    // H5 (the unit tests' platform) plays without the wait
    const h5 = new AudioPlayer({ src: 'h.wav' }, () => Object.assign(backend(1), { paused: true }))
    await expect(h5.play()).resolves.toBeUndefined()
  })
})
