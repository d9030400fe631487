const React = require('react')
const ReactDOM = require('react-dom')
// The React page hooks (useLoad, useRouter...) read React from what createReactApp() sets when the
// H5 app boots; a bare render in Jest must set it up the same way.
require('@tarojs/plugin-framework-react/dist/runtime').createH5NativeComponentConfig(null, React, ReactDOM)

// waitFor/findBy* give up after 1 s by default; on CI's loaded processors a render can take longer.
// Only a failing wait takes longer to report.
require('@testing-library/react').configure({ asyncUtilTimeout: 4000 })
