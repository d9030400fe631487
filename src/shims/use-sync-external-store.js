/**
 * H5 builds only: mobx-react-lite imports useSyncExternalStore from the `use-sync-external-store/shim`
 * package, a fallback for React before 18 that checks for the hook and carries its own version. React 18
 * has the hook, so the fallback's code is left out.
 */
export { useSyncExternalStore } from 'react'
