import { createAtom } from 'mobx'
import { bridgeSignals } from './signal'

/**
 * The app's one door to MobX: every module that uses MobX imports it from here, never from 'mobx' or
 * 'mobx-react-lite' (test/unit/signals.test.tsx checks the sources). Loading this module bridges the
 * Signal stores (session, locale, capabilities: src/stores/signal.ts) into MobX first, so an observer,
 * a computed or a reaction follows them as it follows an observable.
 *
 * On H5 this module and MobX come in a chunk of their own with the pages that use them (config/index.ts:
 * the `mobx` chunk), not with the first page.
 */
bridgeSignals(name => createAtom(name))

export { makeAutoObservable, reaction, runInAction } from 'mobx'
export { observer } from 'mobx-react-lite'
