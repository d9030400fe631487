/**
 * H5 builds only: Taro's request module imports jsonp-retry for `jsonp: true` requests. The app never
 * makes JSONP requests; this keeps that library out of the bundle and fails loudly if one is tried.
 */
module.exports = function jsonpUnavailable () {
  return Promise.reject(new Error('JSONP requests are not supported by this app'))
}
