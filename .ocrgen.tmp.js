const { createCanvas } = require('@napi-rs/canvas')
const fs = require('fs')
const [w, h, kind] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]]
const c = createCanvas(w, h); const g = c.getContext('2d')
g.fillStyle = '#fff'; g.fillRect(0, 0, w, h); g.fillStyle = '#000'
if (kind === 'dots') { for (let y = 0; y < h; y += 4) for (let x = (y/4)%2*2; x < w; x += 4) g.fillRect(x, y, 2, 2) }
else { g.font = '10px sans-serif'; const line = 'ab8x '.repeat(Math.ceil(w / 20)); for (let y = 10; y < h; y += 12) g.fillText(line, 0, y) }
fs.writeFileSync(process.argv[5], c.toBuffer('image/png'))
