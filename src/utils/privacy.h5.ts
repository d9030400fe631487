/**
 * H5: no privacy check to answer (WeChat's is the mini-program's: ./privacy.ts). The same calls do
 * nothing here, and the privacy store stays out of the H5 bundle.
 */
export function installPrivacyListener (): void {}

export function openPrivacyContract (): void {}
