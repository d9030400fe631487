/**
 * Words a shopper must never read (issue 21): setup vocabulary ("not configured", "未配置", "server
 * setting") and environment variable names (UPPER_SNAKE_CASE with an underscore). Operators read
 * what to configure in the editor's Settings tab, which is the one place these may appear.
 */
const SETUP_WORDS = /未配置|没有配置|未开通|未启用|没有启用|没有开启|未安装|服务器配置|configured|not set up|switched off/i
const ENV_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/

/** The first setup word or environment variable name in a text, or null when it has none. */
export function configWordIn (text: string): string | null {
  return (SETUP_WORDS.exec(text) ?? ENV_NAME.exec(text))?.[0] ?? null
}

/**
 * The credit (spent first, never withdrawn) has one name per language: 抵扣金 / credit. These are the
 * other names it has gone by.
 */
export const OTHER_CREDIT_NAMES = /赠送金|积分|奖励金|bonus balance|bonus money|\bpoints\b/i
