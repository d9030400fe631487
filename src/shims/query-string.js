/**
 * H5 builds only: stands in for `query-string` (with decode-uri-component, split-on-first and
 * filter-obj, about 2.2 KB brotli of the first load) in Taro's router and H5 APIs, which call only
 * `parse(search)`, `parse(search, { decode: false })` and `stringify(query, { arrayFormat: 'comma',
 * skipNull: true })`. Those calls give what the library gives (test/unit/query-string-shim.test.ts
 * compares the two on a generated corpus); any other option is refused loudly rather than
 * answered differently.
 */
var SUPPORTED_PARSE = { decode: true }
var SUPPORTED_STRINGIFY = { arrayFormat: true, skipNull: true }

function checkOptions (options, supported, name) {
  for (var key in options || {}) {
    if (!supported[key] || (key === 'arrayFormat' && options[key] !== 'comma')) {
      throw new Error('query-string stand-in (src/shims/query-string.js): ' + name + ' option ' + key + ' is not supported')
    }
  }
}

function percentByte (input, at) {
  var m = /^%([0-9a-f]{2})/i.exec(input.slice(at, at + 3))
  return m ? parseInt(m[1], 16) : -1
}

function sequenceLength (byte) {
  if (byte <= 0x7f) return 1
  if (byte >= 0xc2 && byte <= 0xdf) return 2
  if (byte >= 0xe0 && byte <= 0xef) return 3
  if (byte >= 0xf0 && byte <= 0xf4) return 4
  return 0
}

/** One run of %XX bytes: decoded where it is valid UTF-8, the rest left as written. */
function decodeRun (run) {
  try { return decodeURIComponent(run) } catch (e) { /* decoded piece by piece below */ }
  var out = ''
  var at = 0
  while (at < run.length) {
    var lead = percentByte(run, at)
    var length = sequenceLength(lead)
    if (length === 0) {
      var pair = run.slice(at, at + 6)
      if (pair === '%FE%FF' || pair === '%FF%FE') { out += '\uFFFD\uFFFD'; at += 6; continue }
      out += run.slice(at, at + 3); at += 3; continue
    }
    var end = at + 3
    var whole = true
    for (var i = 1; i < length; i++) {
      var next = percentByte(run, end)
      if (next < 0x80 || next > 0xbf) { whole = false; break }
      end += 3
    }
    if (whole) {
      try { out += decodeURIComponent(run.slice(at, end)); at = end; continue } catch (e) { /* the lead byte stays */ }
    }
    var literal = run.slice(at, at + 3)
    out += literal === '%C2' ? '\uFFFD' : literal
    at += 3
  }
  return out
}

function decode (value) {
  return value.replace(/(%[a-f0-9]{2})+/gi, decodeRun)
}

export function parse (query, options) {
  checkOptions(options, SUPPORTED_PARSE, 'parse')
  var decodes = !options || options.decode !== false
  var found = Object.create(null)
  if (typeof query !== 'string') return found
  query = query.trim().replace(/^[?#&]/, '')
  var parts = query.split('&')
  for (var p = 0; p < parts.length; p++) {
    if (parts[p] === '') continue
    var parameter = decodes ? parts[p].replace(/\+/g, ' ') : parts[p]
    var eq = parameter.indexOf('=')
    var key = eq < 0 ? parameter : parameter.slice(0, eq)
    var value = eq < 0 ? null : parameter.slice(eq + 1)
    if (decodes) {
      key = decode(key)
      if (value !== null) value = decode(value)
    }
    // a key given twice collects its values, in order
    found[key] = found[key] === undefined ? value : [].concat(found[key], value)
  }
  var sorted = Object.create(null)
  var keys = Object.keys(found).sort()
  for (var k = 0; k < keys.length; k++) {
    sorted[keys[k]] = found[keys[k]]
  }
  return sorted
}

function encode (value) {
  return encodeURIComponent(value).replace(/[!'()*]/g, function (c) { return '%' + c.charCodeAt(0).toString(16).toUpperCase() })
}

export function stringify (object, options) {
  checkOptions(options, SUPPORTED_STRINGIFY, 'stringify')
  if (!object) return ''
  var comma = !!options && options.arrayFormat === 'comma'
  var skipNull = !!options && !!options.skipNull
  return Object.keys(object)
    .filter(function (key) { return !(skipNull && (object[key] === null || object[key] === undefined)) })
    .sort()
    .map(function (key) {
      var value = object[key]
      if (value === undefined) return ''
      if (value === null) return encode(key)
      if (Array.isArray(value)) {
        if (!comma) {
          return value.filter(function (v) { return v !== undefined && !(skipNull && v === null) })
            .map(function (v) { return v === null ? encode(key) : encode(key) + '=' + encode(v) }).join('&')
        }
        var items = value.filter(function (v) { return v !== undefined && !(skipNull && v === null) })
          .map(function (v) { return encode(v === null ? '' : v) })
        return items.length ? encode(key) + '=' + items.join(',') : ''
      }
      return encode(key) + '=' + encode(value)
    })
    .filter(function (x) { return x.length > 0 })
    .join('&')
}

export default { parse: parse, stringify: stringify }
