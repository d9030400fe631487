const { createCanvas, loadImage } = require('@napi-rs/canvas')
const fs = require('fs')
;(async () => {
const img = await loadImage(fs.readFileSync(process.argv[2])); const max = Number(process.argv[3])
const s = Math.sqrt(max / (img.width * img.height)); const w = Math.round(img.width * s), h = Math.round(img.height * s)
const c = createCanvas(w, h); const g = c.getContext('2d'); g.imageSmoothingQuality = 'high'; g.drawImage(img, 0, 0, w, h)
fs.writeFileSync(process.argv[4], c.toBuffer('image/png')); console.log(w, h)
})()
