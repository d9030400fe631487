/**
 * H5 builds only: mobx-react-lite imports useSyncExternalStore from the `use-sync-external-store/shim`
 * package, a fallback for React before 18 that checks for the hook and carries its own version. The H5
 * app runs on Preact, whose compat layer (what `react` resolves to there) has the hook.
 */
export { useSyncExternalStore } from 'react'
