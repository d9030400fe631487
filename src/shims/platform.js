/**
 * H5 builds only: stands in for the `platform` user-agent parser (about 6.5 KB of gzip JavaScript)
 * that @tarojs/taro-h5 imports for getDeviceInfo / getSystemInfo. The app never asks for the device
 * brand or model; this gives the OS family and version from the user agent and leaves brand and
 * model unknown, which Taro already reports when it cannot tell.
 */
function detectOs (ua) {
  var m
  if ((m = /Android\s+([\d.]+)/i.exec(ua))) return { family: 'Android', version: m[1] }
  if ((m = /(?:iPhone|iPad|iPod).*?OS\s+([\d_]+)/i.exec(ua))) return { family: 'iOS', version: m[1].replace(/_/g, '.') }
  if ((m = /HarmonyOS\s*([\d.]*)/i.exec(ua))) return { family: 'HarmonyOS', version: m[1] }
  if ((m = /Windows NT\s+([\d.]+)/i.exec(ua))) return { family: 'Windows', version: m[1] }
  if ((m = /Mac OS X\s+([\d_]+)/i.exec(ua))) return { family: 'OS X', version: m[1].replace(/_/g, '.') }
  if (/Linux/i.test(ua)) return { family: 'Linux', version: '' }
  return null
}

var ua = typeof navigator !== 'undefined' ? navigator.userAgent : ''
var os = detectOs(ua)
if (os) os.toString = function () { return (this.family + ' ' + this.version).trim() }

module.exports = { ua: ua, os: os, manufacturer: null, product: null, name: null, version: null, description: ua }
