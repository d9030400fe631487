// A local Tencent JavaScript API GL (https://map.qq.com/api/gljs) for tests: the script a page loads
// with `<script src=".../api/gljs?v=1.exp&key=KEY&callback=fn">`, defining window.TMap with the classes
// the shop uses, drawn as plain DOM (pins as <img>, the route as SVG) so a test can see them.
// Rules taken from Tencent's documentation (https://lbs.qq.com/webApi/javascriptGL/glDoc/glDocIndex
// and the class reference https://lbs.qq.com/webApi/javascriptGL/glDoc/docIndexMap, docIndexMarker,
// docIndexPolyline), each as strict as the real one or stricter:
//  - a missing or unknown key: the real script reports an authentication failure (鉴权失败) and no map
//    works; here TMap is not defined and the callback is never called;
//  - `callback`: a global function called once TMap is ready (the documented asynchronous load);
//  - TMap.LatLng(lat, lng) takes numbers; Map(container, options) takes a DOM element and a LatLng
//    centre; zoom is kept within minZoom..maxZoom, themselves within 3..20 (the map's documented range);
//  - MultiMarker and MultiPolyline need a map; each geometry an id unique in its layer and a styleId
//    naming one of the layer's styles (the real one falls back to a default style; refused here);
//    a marker's position and a polyline's paths are LatLng;
//  - a destroyed map takes no more calls.
// `fake.loads` records each script request (key, callback).
const { listen } = require('./http')

const KEY = 'TESTJ-SKEY1-23ABC-DEFGH-IJKLM-NOPQR'

function script (callback) {
  return `;(function () {
  var fake = window.__tmapFake = { maps: [], markers: [], lines: [] }
  function need (ok, message) { if (!ok) throw new Error('[TMap] ' + message) }
  function isNum (n) { return typeof n === 'number' && isFinite(n) }
  function LatLng (lat, lng) {
    need(this instanceof LatLng, 'LatLng is a constructor')
    need(isNum(lat) && isNum(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180, 'LatLng needs numbers: lat -90..90, lng -180..180')
    this.lat = lat; this.lng = lng
  }
  LatLng.prototype.getLat = function () { return this.lat }
  LatLng.prototype.getLng = function () { return this.lng }
  function isLatLng (p) { return p instanceof LatLng }
  function LatLngBounds () { this.sw = null; this.ne = null }
  LatLngBounds.prototype.extend = function (p) {
    need(isLatLng(p), 'LatLngBounds.extend needs a LatLng')
    if (!this.sw) { this.sw = new LatLng(p.lat, p.lng); this.ne = new LatLng(p.lat, p.lng) } else {
      this.sw = new LatLng(Math.min(this.sw.lat, p.lat), Math.min(this.sw.lng, p.lng))
      this.ne = new LatLng(Math.max(this.ne.lat, p.lat), Math.max(this.ne.lng, p.lng))
    }
    return this
  }
  function world (z) { return 256 * Math.pow(2, z) }
  function project (p, z) {
    var s = Math.sin(p.lat * Math.PI / 180)
    return { x: (p.lng + 180) / 360 * world(z), y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world(z) }
  }
  function Map (container, options) {
    need(this instanceof Map, 'Map is a constructor')
    need(container instanceof HTMLElement, 'Map needs a container element')
    options = options || {}
    need(isLatLng(options.center), 'Map options.center must be a TMap.LatLng')
    this.minZoom = Math.max(3, isNum(options.minZoom) ? options.minZoom : 3)
    this.maxZoom = Math.min(20, isNum(options.maxZoom) ? options.maxZoom : 20)
    need(this.minZoom <= this.maxZoom, 'minZoom above maxZoom')
    this.el = document.createElement('div')
    this.el.className = 'tmap-fake'
    this.el.style.cssText = 'position:absolute;inset:0;overflow:hidden;background:#e8eef3'
    if (getComputedStyle(container).position === 'static') container.style.position = 'relative'
    container.appendChild(this.el)
    this.center = options.center
    this.zoom = this.clamp(isNum(options.zoom) ? options.zoom : 11)
    this.layers = []
    this.destroyed = false
    fake.maps.push(this)
    this.sync()
  }
  Map.prototype.alive = function () { need(!this.destroyed, 'the map was destroyed') }
  Map.prototype.clamp = function (z) { return Math.min(this.maxZoom, Math.max(this.minZoom, z)) }
  Map.prototype.sync = function () {
    this.el.setAttribute('data-zoom', String(this.zoom))
    this.el.setAttribute('data-center', this.center.lat.toFixed(6) + ',' + this.center.lng.toFixed(6))
    for (var i = 0; i < this.layers.length; i++) this.layers[i].draw()
  }
  Map.prototype.setCenter = function (c) { this.alive(); need(isLatLng(c), 'setCenter needs a LatLng'); this.center = c; this.sync() }
  Map.prototype.setZoom = function (z) { this.alive(); need(isNum(z), 'setZoom needs a number'); this.zoom = this.clamp(z); this.sync() }
  Map.prototype.getZoom = function () { return this.zoom }
  Map.prototype.getCenter = function () { return this.center }
  Map.prototype.fitBounds = function (b, o) {
    this.alive()
    need(b instanceof LatLngBounds && b.sw, 'fitBounds needs a LatLngBounds with a point')
    var pad = (o && isNum(o.padding)) ? o.padding : 0
    var w = Math.max(1, this.el.clientWidth - 2 * pad), h = Math.max(1, this.el.clientHeight - 2 * pad)
    var z = this.maxZoom
    while (z > this.minZoom) {
      var a = project(b.sw, z), c = project(b.ne, z)
      if (Math.abs(c.x - a.x) <= w && Math.abs(c.y - a.y) <= h) break
      z--
    }
    this.center = new LatLng((b.sw.lat + b.ne.lat) / 2, (b.sw.lng + b.ne.lng) / 2)
    this.zoom = this.clamp(z)
    this.sync()
  }
  Map.prototype.toScreen = function (p) {
    var o = project(this.center, this.zoom), q = project(p, this.zoom)
    return { x: this.el.clientWidth / 2 + q.x - o.x, y: this.el.clientHeight / 2 + q.y - o.y }
  }
  Map.prototype.destroy = function () { this.alive(); this.destroyed = true; this.el.remove(); this.layers = [] }
  function MarkerStyle (o) {
    need(o && isNum(o.width) && isNum(o.height), 'MarkerStyle needs width and height')
    this.width = o.width; this.height = o.height; this.src = o.src || ''; this.anchor = o.anchor || { x: o.width / 2, y: o.height }
  }
  function PolylineStyle (o) {
    need(o && typeof o.color === 'string' && isNum(o.width), 'PolylineStyle needs color and width')
    this.color = o.color; this.width = o.width
  }
  function Layer (kind, o, Style) {
    need(o && o.map instanceof Map, kind + ' needs options.map')
    o.map.alive()
    var styles = o.styles || {}
    for (var k in styles) need(styles[k] instanceof Style, kind + ' style ' + k + ' must be a ' + Style.name)
    this.kind = kind; this.map = o.map; this.styles = styles; this.handlers = []; this.geometries = []
    this.el = document.createElement('div')
    this.el.className = 'tmap-fake-' + kind
    this.el.style.cssText = 'position:absolute;inset:0;pointer-events:none'
    o.map.el.appendChild(this.el)
    o.map.layers.push(this)
    this.setGeometries(o.geometries || [])
  }
  Layer.prototype.check = function (list) {
    need(Array.isArray(list), this.kind + ' geometries must be an array')
    var seen = {}
    for (var i = 0; i < list.length; i++) {
      var g = list[i]
      need(g && typeof g.id === 'string' && g.id !== '' && !seen[g.id], this.kind + ' geometry ids must be unique strings')
      seen[g.id] = true
      need(Object.prototype.hasOwnProperty.call(this.styles, g.styleId), this.kind + ' geometry ' + g.id + ' names no style: ' + g.styleId)
      if (this.kind === 'marker') need(isLatLng(g.position), 'marker ' + g.id + ' position must be a LatLng')
      else need(Array.isArray(g.paths) && g.paths.length >= 2 && g.paths.every(isLatLng), 'polyline ' + g.id + ' paths must be two or more LatLng')
    }
  }
  Layer.prototype.setGeometries = function (list) { this.map.alive(); this.check(list); this.geometries = list.slice(); this.draw() }
  Layer.prototype.getGeometries = function () { return this.geometries.slice() }
  Layer.prototype.on = function (event, fn) { need(typeof fn === 'function', 'on needs a function'); this.handlers.push({ event: event, fn: fn }) }
  Layer.prototype.setMap = function (m) { if (!m) { this.el.remove(); this.map.layers = this.map.layers.filter(function (l) { return l !== this }, this) } }
  Layer.prototype.fire = function (event, g) { for (var i = 0; i < this.handlers.length; i++) if (this.handlers[i].event === event) this.handlers[i].fn({ geometry: g }) }
  Layer.prototype.draw = function () {
    var self = this, map = this.map
    this.el.innerHTML = ''
    if (this.kind === 'marker') {
      this.geometries.forEach(function (g) {
        var s = self.styles[g.styleId], at = map.toScreen(g.position)
        var img = document.createElement('img')
        img.className = 'tmap-fake-pin tmap-fake-pin--' + g.styleId
        img.setAttribute('data-id', g.id)
        img.alt = (g.properties && g.properties.title) || ''
        img.src = s.src
        img.style.cssText = 'position:absolute;pointer-events:auto;cursor:pointer;width:' + s.width + 'px;height:' + s.height + 'px;left:' + (at.x - s.anchor.x) + 'px;top:' + (at.y - s.anchor.y) + 'px'
        img.addEventListener('click', function () { self.fire('click', g) })
        self.el.appendChild(img)
      })
    } else {
      var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
      svg.setAttribute('width', '100%'); svg.setAttribute('height', '100%')
      svg.style.cssText = 'position:absolute;inset:0'
      this.geometries.forEach(function (g) {
        var s = self.styles[g.styleId]
        var line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline')
        line.setAttribute('class', 'tmap-fake-route')
        line.setAttribute('data-id', g.id)
        line.setAttribute('data-points', String(g.paths.length))
        line.setAttribute('points', g.paths.map(function (p) { var q = map.toScreen(p); return q.x.toFixed(1) + ',' + q.y.toFixed(1) }).join(' '))
        line.setAttribute('fill', 'none'); line.setAttribute('stroke', s.color); line.setAttribute('stroke-width', String(s.width)); line.setAttribute('stroke-linecap', 'round')
        svg.appendChild(line)
      })
      this.el.appendChild(svg)
    }
  }
  function MultiMarker (o) { Layer.call(this, 'marker', o, MarkerStyle); fake.markers.push(this) }
  MultiMarker.prototype = Object.create(Layer.prototype)
  function MultiPolyline (o) { Layer.call(this, 'polyline', o, PolylineStyle); fake.lines.push(this) }
  MultiPolyline.prototype = Object.create(Layer.prototype)
  window.TMap = { LatLng: LatLng, LatLngBounds: LatLngBounds, Map: Map, MarkerStyle: MarkerStyle, MultiMarker: MultiMarker, PolylineStyle: PolylineStyle, MultiPolyline: MultiPolyline }
  ${callback ? `setTimeout(function () { var f = window[${JSON.stringify(callback)}]; if (typeof f === 'function') f() }, 0)` : ''}
})();`
}

async function start () {
  const fake = { loads: [], url: '', script: '', close: null }
  const server = await listen((req, res) => {
    const url = new URL(req.url, 'http://fake')
    const key = url.searchParams.get('key') || ''
    const callback = url.searchParams.get('callback') || ''
    fake.loads.push({ path: url.pathname, key, callback, v: url.searchParams.get('v') })
    if (url.pathname !== '/api/gljs') { res.writeHead(404); res.end(); return }
    res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'no-store' })
    if (key !== KEY || !/^[A-Za-z_$][\w$]*$/.test(callback || 'x')) {
      res.end('console.error("[TMap] 鉴权失败，请传入正确的key (key: " + ' + JSON.stringify(key) + ' + ")")')
      return
    }
    res.end(script(callback))
  })
  fake.url = server.url
  fake.script = `${server.url}/api/gljs`
  fake.close = server.close
  fake.env = { TENCENT_MAP_JS_KEY: KEY, TENCENT_MAP_JS_URL: fake.script }
  return fake
}

module.exports = { start, KEY }
