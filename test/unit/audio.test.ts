import { AudioPlayer, DURATION_RETRIES, DURATION_RETRY_MS, type AudioBackend } from '@/utils/audio'
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
