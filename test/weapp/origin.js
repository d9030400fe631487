/**
 * The API address the tested mini-program is built with (scripts/test-all.js passes it to the
 * production weapp build), and the request domain the simulator's WeChat lists for the app, as the
 * mini-program's admin console would (开发管理 → 服务器域名). The simulator delivers this host to the
 * local test server, as a hosts entry and a TLS-terminating proxy would.
 */
module.exports = {
  WEAPP_TEST_API_ORIGIN: 'https://api.shop.test',
  WEAPP_TEST_API_BASE: 'https://api.shop.test/dev-api'
}
