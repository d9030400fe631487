/**
 * The reactivity of the stores every first page reads (session, locale, capabilities), without MobX.
 *
 * Why: on H5 the first page (login, or home) must not wait for MobX and its bindings (16 KB brotli,
 * issue 23). These stores keep their state in plain fields and tell a Signal when it changes; the
 * components of the first pages follow them with `lightObserver` (src/stores/lightObserver.ts).
 *
 * The other pages stay MobX observers. MobX learns of these stores through the bridge: once
 * src/stores/mobx.ts has loaded (every MobX user imports MobX through it), each Signal also has a MobX
 * atom, so an observer, a computed or a reaction that reads a store follows it as it follows an
 * observable.
 */

/** The part of a MobX atom a Signal uses (mobx's createAtom). */
export interface SignalAtom {
  reportObserved: () => boolean
  reportChanged: () => void
}

/** Whoever is rendering and wants to know what it reads (a lightObserver component). */
export interface SignalReader {
  read: (signal: Signal) => void
}

let createAtom: ((name: string) => SignalAtom) | null = null
let reader: SignalReader | null = null
const signals = new Set<Signal>()

/**
 * One store's "something changed". Coarse on purpose: these stores are small, and a change of any field
 * re-renders whoever read any of them.
 */
export class Signal {
  /** Goes up on each change: a reader compares it with what it rendered. */
  version = 0
  private atom: SignalAtom | null
  private readonly listeners = new Set<() => void>()

  constructor (readonly name: string) {
    this.atom = createAtom ? createAtom(name) : null
    signals.add(this)
  }

  /** A read of the store's state: the component rendering, and MobX's current derivation, follow it. */
  observe (): void {
    reader?.read(this)
    this.atom?.reportObserved()
  }

  /** The store's state changed: its readers render again. */
  changed (): void {
    this.version++
    this.atom?.reportChanged()
    for (const listener of [...this.listeners]) listener()
  }

  /** Calls `listener` after each change, until the returned function is called. */
  subscribe (listener: () => void): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  /** Called by the bridge (src/stores/mobx.ts). */
  attach (make: (name: string) => SignalAtom): void {
    if (!this.atom) this.atom = make(this.name)
  }
}

/** MobX has loaded: every Signal, now and later, reports to a MobX atom too (src/stores/mobx.ts). */
export function bridgeSignals (make: (name: string) => SignalAtom): void {
  createAtom = make
  for (const signal of signals) signal.attach(make)
}

/** Whether the bridge to MobX is in (tests). */
export function signalsBridged (): boolean {
  return createAtom !== null
}

/** Runs `fn` with `next` told of every Signal read meanwhile. */
export function readingWith<T> (next: SignalReader, fn: () => T): T {
  const previous = reader
  reader = next
  try {
    return fn()
  } finally {
    reader = previous
  }
}
