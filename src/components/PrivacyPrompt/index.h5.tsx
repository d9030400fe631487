/**
 * H5: WeChat's privacy prompt has nothing to show in a browser (./index.tsx is the mini-program's), so
 * neither it nor its store is in the H5 bundle.
 */
export default function PrivacyPrompt () {
  return null
}
