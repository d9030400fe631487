/**
 * H5: the style sheet of Taro's components, taken in before the app's own (src/app.tsx imports this
 * first). Taro's entry imports it after the app; its production build extracts it with the app's styles
 * into one file (config/index.ts), where the later sheet wins a tie, so it must come first for the
 * app's rules to override Taro's defaults, as they do when Taro inserts it at the top of the page.
 */
import '@tarojs/components-react/dist/index.css'

export {}
