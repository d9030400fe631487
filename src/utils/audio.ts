/**
 * An audio player over Taro's InnerAudioContext (spec 4, 9): states play, pause, ended with an
 * optional loop; events play, pause, ended, timeupdate, durationchange, seek, error; once destroyed,
 * play is rejected. Volume is clamped to 0..1 and seeking to 0..duration; the duration is read again
 * up to 10 times, 300 ms apart, until the platform knows it.
 *
 * In the mini-program, play() waits until the audio really plays (spec 9: the play wait polls every
 * 100 ms): InnerAudioContext.play() returns at once and starts later, after the file has loaded, or
 * never. The wait ends when the platform says it plays (onPlay, or `paused` false), and fails on an
 * error, when the player is destroyed meanwhile, or after PLAY_WAIT_MAX_POLLS polls (10 s).
 */
import Taro from '@tarojs/taro'
import { isH5 } from '@/config'
import { t } from '@/stores/locale'

export type AudioState = 'idle' | 'playing' | 'paused' | 'ended'
export type AudioEvent = 'play' | 'pause' | 'ended' | 'timeupdate' | 'durationchange' | 'seek' | 'error'

export const DURATION_RETRIES = 10
export const DURATION_RETRY_MS = 300
export const PLAY_WAIT_POLL_MS = 100
export const PLAY_WAIT_MAX_POLLS = 100

/** What the player needs of Taro.InnerAudioContext. */
export interface AudioBackend {
  src: string
  loop: boolean
  volume: number
  readonly duration: number
  readonly currentTime: number
  /** The mini-program's InnerAudioContext says whether it is paused (or stopped, or not started). */
  readonly paused?: boolean
  play?: () => void
  pause: () => void
  stop: () => void
  seek: (position: number) => void
  destroy: () => void
  onPlay: (cb: () => void) => void
  onPause: (cb: () => void) => void
  onEnded: (cb: () => void) => void
  onTimeUpdate: (cb: () => void) => void
  onError: (cb: (e: { errMsg?: string }) => void) => void
}

export class AudioError extends Error {
  constructor (readonly code: 'destroyed' | 'noSource' | 'noPlay' | 'unavailable' | 'failed', message: string) {
    super(message)
    this.name = 'AudioError'
  }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v))

export class AudioPlayer {
  state: AudioState = 'idle'
  duration = 0
  private backend: AudioBackend | null
  private destroyed = false
  private listeners = new Map<AudioEvent, Set<(payload?: unknown) => void>>()
  private durationTimer: ReturnType<typeof setTimeout> | null = null
  private readonly waitForPlay: boolean

  constructor (
    options: { src?: string; loop?: boolean; volume?: number; waitForPlay?: boolean } = {},
    create: () => AudioBackend | null = () => (Taro.createInnerAudioContext?.() as unknown as AudioBackend) ?? null
  ) {
    // the mini-program's play starts later (see above); H5 audio reports its own events
    this.waitForPlay = options.waitForPlay ?? !isH5()
    let backend: AudioBackend | null = null
    try { backend = create() } catch { backend = null }
    this.backend = backend
    if (!backend) return
    backend.loop = !!options.loop
    backend.volume = clamp(options.volume ?? 1, 0, 1)
    if (options.src) backend.src = options.src
    backend.onPlay(() => { this.state = 'playing'; this.emit('play') })
    backend.onPause(() => { this.state = 'paused'; this.emit('pause') })
    backend.onEnded(() => { this.state = 'ended'; this.emit('ended') })
    backend.onTimeUpdate(() => this.emit('timeupdate', backend.currentTime))
    backend.onError(e => this.emit('error', e))
    if (options.src) this.detectDuration()
  }

  get available (): boolean { return !!this.backend && !this.destroyed }

  on (event: AudioEvent, fn: (payload?: unknown) => void): () => void {
    const set = this.listeners.get(event) ?? new Set()
    set.add(fn)
    this.listeners.set(event, set)
    return () => set.delete(fn)
  }

  private emit (event: AudioEvent, payload?: unknown): void {
    this.listeners.get(event)?.forEach(fn => fn(payload))
  }

  setSrc (src: string): void {
    const b = this.usable()
    b.src = src
    this.duration = 0
    this.detectDuration()
  }

  setLoop (loop: boolean): void { this.usable().loop = loop }

  setVolume (volume: number): number {
    const v = clamp(Number.isFinite(volume) ? volume : 1, 0, 1)
    this.usable().volume = v
    return v
  }

  async play (): Promise<void> {
    if (this.destroyed) throw new AudioError('destroyed', t('audio.destroyed'))
    const b = this.backend
    if (!b) throw new AudioError('unavailable', t('audio.unavailable'))
    if (!b.src) throw new AudioError('noSource', t('audio.noSource'))
    if (typeof b.play !== 'function') throw new AudioError('noPlay', t('audio.noPlay'))
    let started = false
    const offPlay = this.waitForPlay ? this.on('play', () => { started = true }) : () => false
    b.play()
    this.state = 'playing'
    if (this.waitForPlay) await this.untilPlaying(b, () => started).finally(offPlay)
  }

  /** Polls every PLAY_WAIT_POLL_MS until the platform plays; rejects on an error, destroy or too long a wait. */
  private untilPlaying (b: AudioBackend, started: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      let failed = false
      const offError = this.on('error', () => { failed = true })
      let polls = 0
      const poll = () => {
        polls++
        if (this.destroyed) { offError(); reject(new AudioError('destroyed', t('audio.destroyed'))); return }
        if (failed) { offError(); reject(new AudioError('failed', t('audio.playFailed'))); return }
        if (started() || b.paused === false) { offError(); resolve(); return }
        if (polls >= PLAY_WAIT_MAX_POLLS) { offError(); reject(new AudioError('failed', t('audio.playFailed'))); return }
        setTimeout(poll, PLAY_WAIT_POLL_MS)
      }
      setTimeout(poll, PLAY_WAIT_POLL_MS)
    })
  }

  pause (): void { this.usable().pause(); this.state = 'paused' }

  stop (): void { this.usable().stop(); this.state = 'idle' }

  seek (position: number): number {
    const b = this.usable()
    const to = clamp(Number.isFinite(position) ? position : 0, 0, this.duration || b.duration || 0)
    b.seek(to)
    this.emit('seek', to)
    return to
  }

  destroy (): void {
    if (this.destroyed) return
    this.destroyed = true
    if (this.durationTimer) clearTimeout(this.durationTimer)
    this.backend?.destroy()
    this.listeners.clear()
  }

  private usable (): AudioBackend {
    if (this.destroyed) throw new AudioError('destroyed', t('audio.destroyed'))
    if (!this.backend) throw new AudioError('unavailable', t('audio.unavailable'))
    return this.backend
  }

  private detectDuration (attempt = 0): void {
    if (this.durationTimer) clearTimeout(this.durationTimer)
    const b = this.backend
    if (!b || this.destroyed) return
    const d = b.duration
    if (d > 0 && Number.isFinite(d)) {
      if (d !== this.duration) { this.duration = d; this.emit('durationchange', d) }
      return
    }
    if (attempt + 1 >= DURATION_RETRIES) return
    this.durationTimer = setTimeout(() => this.detectDuration(attempt + 1), DURATION_RETRY_MS)
  }
}
