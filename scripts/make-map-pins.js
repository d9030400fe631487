#!/usr/bin/env node
/**
 * Draws the map's marker icons (WeChat's map needs a picture per marker: iconPath) and writes them to
 * src/static/map/: a pickup point (brand orange), the chosen one (brand pink, larger ring) and the
 * shopper's starting point (blue dot). Run once; the files are committed.
 *   node scripts/make-map-pins.js
 */
const fs = require('node:fs')
const path = require('node:path')
const sharp = require('sharp')

const out = path.join(__dirname, '..', 'src', 'static', 'map')
fs.mkdirSync(out, { recursive: true })

// 2x pictures of a 28 x 36 pin: a drop with a white ring
const pin = (fill) => `<svg xmlns="http://www.w3.org/2000/svg" width="56" height="72" viewBox="0 0 28 36">
  <path d="M14 35C14 35 2 21.5 2 13.5a12 12 0 0 1 24 0C26 21.5 14 35 14 35z" fill="${fill}" stroke="#ffffff" stroke-width="2"/>
  <circle cx="14" cy="13.5" r="4.5" fill="#ffffff"/>
</svg>`
const dot = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 20 20">
  <circle cx="10" cy="10" r="9" fill="#2f6fed" fill-opacity="0.25"/>
  <circle cx="10" cy="10" r="5.5" fill="#2f6fed" stroke="#ffffff" stroke-width="2"/>
</svg>`

const files = { 'pin.png': pin('#ff7a59'), 'pin-on.png': pin('#e0245e'), 'origin.png': dot }
Promise.all(Object.entries(files).map(([name, svg]) =>
  sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toFile(path.join(out, name))
)).then(() => console.log(`map icons written to ${path.relative(process.cwd(), out)}`))
