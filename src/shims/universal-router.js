/**
 * H5 builds only: stands in for `universal-router` with `path-to-regexp` (about 2.2 KB brotli of the
 * first load) in Taro's single-page router, which gives it a flat list of fixed page paths (a path or
 * a list of aliases each) and calls `resolve(pathname)`. A path matches as path-to-regexp matches a
 * path without parameters under universal-router's options: the whole pathname, ignoring case, with
 * or without one trailing delimiter. The first route whose action answers something other than
 * null/undefined wins; none is a 404 error, as universal-router's. Routes with parameters, nesting or
 * patterns are refused when the router is made (test/unit/universal-router-shim.test.ts compares
 * the two on the app's own routes and on pathnames around them).
 */
var PATTERN = /[:*?+()[\]{}]/

function fixedPaths (route) {
  if (route.children) throw new Error('universal-router stand-in (src/shims/universal-router.js): nested routes are not supported')
  var paths = Array.isArray(route.path) ? route.path : [route.path || '']
  for (var i = 0; i < paths.length; i++) {
    if (typeof paths[i] !== 'string' || PATTERN.test(paths[i])) {
      throw new Error('universal-router stand-in (src/shims/universal-router.js): route ' + String(paths[i]) + ' is not a fixed path')
    }
  }
  return paths
}

function matches (path, pathname) {
  var a = path.toLowerCase()
  var b = pathname.toLowerCase()
  // path-to-regexp (strict: false) lets one delimiter (its default '/#?') follow the path
  return a === b || (b.length === a.length + 1 && b.slice(0, a.length) === a && '/#?'.indexOf(b.charAt(a.length)) >= 0)
}

function UniversalRouter (routes, options) {
  if (!routes || typeof routes !== 'object') throw new TypeError('Invalid routes')
  if (!Array.isArray(routes)) throw new Error('universal-router stand-in (src/shims/universal-router.js): only a list of routes is supported')
  this.options = options || {}
  this.baseUrl = this.options.baseUrl || ''
  this.routes = routes.map(function (route) { return { route: route, paths: fixedPaths(route) } })
}

UniversalRouter.prototype.resolve = function (pathnameOrContext) {
  var self = this
  var context = Object.assign({ router: this }, this.options.context, typeof pathnameOrContext === 'string' ? { pathname: pathnameOrContext } : pathnameOrContext)
  var pathname = context.pathname.substr(this.baseUrl.length)
  var index = 0
  function next () {
    while (index < self.routes.length) {
      var entry = self.routes[index++]
      var path = null
      for (var i = 0; i < entry.paths.length && path === null; i++) {
        if (matches(entry.paths[i], pathname)) path = pathname
      }
      if (path === null || typeof entry.route.action !== 'function') continue
      var routeContext = Object.assign({}, context, { route: entry.route, baseUrl: self.baseUrl, path: path, params: {}, next: next })
      return Promise.resolve(entry.route.action(routeContext, {})).then(function (result) {
        return result === null || result === undefined ? next() : result
      })
    }
    var error = new Error('Route not found')
    error.status = 404
    return Promise.reject(error)
  }
  return next()
}

export default UniversalRouter
