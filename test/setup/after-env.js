const React = require('react')
const ReactDOM = require('react-dom')
// The React page hooks (useLoad, useRouter...) read React from what createReactApp() sets when the
// H5 app boots; a bare render in Jest must set it up the same way.
require('@tarojs/plugin-framework-react/dist/runtime').createH5NativeComponentConfig(null, React, ReactDOM)
