import { memo, useRef, useSyncExternalStore, type FunctionComponent, type ReactElement } from 'react'
import { readingWith, type Signal, type SignalReader } from './signal'

/**
 * A component's follower: the Signals its last renders read, with the version each had then. It
 * listens to them while the component is mounted; a change counts up its snapshot, and React renders
 * the component again.
 */
class Follower implements SignalReader {
  private readonly seen = new Map<Signal, number>()
  private readonly stops = new Map<Signal, () => void>()
  private notify: (() => void) | null = null
  private changes = 0

  read (signal: Signal): void {
    this.seen.set(signal, signal.version)
    // a signal first read by a later render, while mounted
    if (this.notify && !this.stops.has(signal)) this.listen(signal)
  }

  private listen (signal: Signal): void {
    this.stops.set(signal, signal.subscribe(this.onChange))
  }

  private readonly onChange = (): void => {
    this.changes++
    this.notify?.()
  }

  /** useSyncExternalStore's subscribe: from the commit until the component goes. */
  readonly subscribe = (notify: () => void): (() => void) => {
    this.notify = notify
    for (const signal of this.seen.keys()) this.listen(signal)
    // a change between the render and now: render again
    for (const [signal, version] of this.seen) {
      if (signal.version !== version) { this.changes++; break }
    }
    return () => {
      for (const stop of this.stops.values()) stop()
      this.stops.clear()
      this.notify = null
    }
  }

  readonly snapshot = (): number => this.changes
}

/**
 * Like mobx-react-lite's `observer`, for the stores built on Signals (session, locale, capabilities):
 * the component renders again when a store it read in its last render changes. The first pages' own
 * components use it, so that MobX loads only with the other pages (src/stores/signal.ts). A component
 * that reads a MobX store must be a MobX observer instead (src/stores/mobx.ts); a unit test holds the
 * first pages to this (test/unit/signals.test.tsx).
 */
export function lightObserver<P extends object> (component: FunctionComponent<P>) {
  function Observed (props: P): ReactElement | null {
    const ref = useRef<Follower | null>(null)
    if (!ref.current) ref.current = new Follower()
    const follower = ref.current
    useSyncExternalStore(follower.subscribe, follower.snapshot, follower.snapshot)
    return readingWith(follower, () => component(props) as ReactElement | null)
  }
  Observed.displayName = component.displayName || component.name
  return memo(Observed)
}
