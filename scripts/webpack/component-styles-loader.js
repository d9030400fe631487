/**
 * For Taro's React components on H5 whose styles come with them (unused-taro-styles-loader.js,
 * OWN_CHUNK): each component imports its `./style/index.scss.js`, an empty module in the package. This
 * loader makes that module import the component's part of Taro's sheet instead
 * (`@tarojs/components-react/dist/index.css?component=<name>`), so the styles are extracted into the
 * CSS of the chunk that holds the component, and loaded with the pages that use it.
 */
const path = require('node:path')

module.exports = function componentStylesLoader () {
  const component = path.basename(path.dirname(path.dirname(this.resourcePath)))
  const sheet = path.join(path.dirname(require.resolve('@tarojs/components-react/package.json')), 'dist', 'index.css')
  return `import ${JSON.stringify(`${sheet.split(path.sep).join('/')}?component=${component}`)}\nexport default undefined\n`
}
