import type { Dict } from './types'
import core from './en/core'
import rest from './en/rest'

/** English, in the same two parts as ./zh.ts. */
const en: Dict = { ...core, ...rest }

export default en
