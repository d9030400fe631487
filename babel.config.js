// babel-preset-taro: used by the Taro build and by Jest (babel-jest)
module.exports = {
  presets: [
    ['taro', { framework: 'react', ts: true, compiler: 'webpack5', useBuiltIns: process.env.TARO_ENV === 'h5' ? 'usage' : false }]
  ]
}
