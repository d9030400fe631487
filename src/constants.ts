import { GEO_LIMITS, LOGIN_LIMITS } from '~types/limits'

/** Named constants from the specification (sections 2, 5, 7, 9). */
export const TOKEN_KEY = 'h5_token'
export const LOCALE_KEY = 'app_locale'
/** Where login sends the user back to (a page and its query), kept in storage while they log in. */
export const LOGIN_RETURN_KEY = 'login_return'
/** A remembered return older than this is dropped (the user went elsewhere). */
export const LOGIN_RETURN_TTL_MS = 30 * 60 * 1000
export const REQUEST_TIMEOUT_MS = 50000
/** The platform's timeouts (spec 9: 60000 ms for request, socket, upload, download; app.config networkTimeout). */
export const PLATFORM_TIMEOUT_MS = 60000
export const UPLOAD_TIMEOUT_MS = PLATFORM_TIMEOUT_MS
export const DOWNLOAD_TIMEOUT_MS = PLATFORM_TIMEOUT_MS
export const POLL_INTERVAL_MS = 2000
export const TOAST_DEFAULT_DURATION_MS = 3000
/**
 * The app's theme colour (src/app.scss --c-brand) for what the platform draws itself: a dialog's confirm
 * button (Taro.showModal confirmColor; WeChat's default is its own, Taro H5's is green #3CC51F). WeChat
 * takes a hex colour of at most 7 characters there.
 */
export const THEME_COLOR = '#d12c3a'

/** The H5 router's base (history mode, spec 2): where an HTTP 401 sends the browser. */
export const APP_BASE = '/'
export const ENTRY_PAGE = '/pages/login/index'
export const WEB_VIEW_PAGE = '/pages/web_view/index'
export const HOME_PAGE = '/pagesA/home/index'
/** The withdrawal part of the top-up page. */
export const WITHDRAW_PAGE = '/pagesA/recharge/index?withdraw=1'
/** Share links default to the entry page, which forwards a logged-in visitor to home. */
export const DEFAULT_SHARE_PATH = ENTRY_PAGE

/** Pages of the main package; every other page lives in the subpackage `pagesA`. */
export const MAIN_PAGES = ['pages/login/index', 'pages/web_view/index'] as const
export const SUBPACKAGE_ROOT = 'pagesA'
export const SUBPACKAGE_PAGES = [
  'blind_box_detail', 'combine', 'combine_result', 'editor', 'home', 'my_blind_box',
  'open_chest_animation', 'prize_detail', 'prize_show', 'profile', 'props', 'purchase',
  'recharge', 'security'
] as const

/** Login form limits (spec 5, 9): the same numbers the server checks. */
export const USERNAME_MIN = LOGIN_LIMITS.userNameMin
export const USERNAME_MAX = LOGIN_LIMITS.userNameMax
export const PASSWORD_MIN = LOGIN_LIMITS.passwordMin
export const PASSWORD_MAX = LOGIN_LIMITS.passwordMax
export const CODE_MIN = LOGIN_LIMITS.codeMin
export const CODE_MAX = LOGIN_LIMITS.codeMax
export const CODE_RESEND_SECONDS = 60

/** H5 root font: 3.5% of the window width, set 10 ms after start, resize throttled to 50 ms (spec 9). */
export const ROOT_FONT_RATIO = 0.035
export const BASE_DEVICE_WIDTH = 375
export const MAX_DEVICE_WIDTH = 960
export const PAGE_BACKGROUND = '#F8F8F8'

/** Location, places and maps (spec 8, 9). */
/** How long Taro.getLocation may take before the IP location is used instead. */
export const GEOLOCATION_TIMEOUT_MS = 100000
/** How often a page that follows the user's position asks again. */
export const LOCATION_REFRESH_MS = 30000
/** Places per page of a location list; 10 for the compact (one map kind) list. */
export const LOCATION_PAGE_SIZE = 20
export const LOCATION_PAGE_SIZE_COMPACT = 10
/** Radius of a nearby-places list, and of a keyword search, in metres. */
export const NEARBY_RADIUS_M = 5000
export const KEYWORD_SEARCH_RADIUS_M = 50000
/** Radius the server uses when a nearby(lat,lng) boundary gives none, in metres. */
export const DEFAULT_NEARBY_RADIUS_M = GEO_LIMITS.defaultNearbyRadius
/** Wait after the last keystroke before searching places. */
export const SEARCH_DEBOUNCE_MS = 1000
/** Image preview zoom (spec 9): from 1 (fit) to 4, by pinch, double tap or the buttons. */
export const IMAGE_PREVIEW_ZOOM_MIN = 1
export const IMAGE_PREVIEW_ZOOM_MAX = 4
export const MAP_ZOOM_MIN = 5
export const MAP_ZOOM_MAX = 18
export const MAP_ZOOM_DEFAULT = 16
/** Spec 9, platform timeouts: a page (or a page's script, the web map's) may take this long to load, and a loading
 * state shows only after this delay (a quick answer never flashes "loading"). */
export const PAGE_LOAD_TIMEOUT_MS = 60000
export const PAGE_LOAD_DELAY_MS = 200
/** Accuracy claimed for a position taken from the IP location (the centre of its rectangle), in metres. */
export const FALLBACK_LOCATION_ACCURACY_M = 1000
/** Wait after the last keystroke before asking for series suggestions on home (a short wait: the answer is local). */
export const SUGGEST_DEBOUNCE_MS = 300
