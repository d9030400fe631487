/** The table API's schemas (server/src/data) use the contract's building blocks in types/. */
import { LOGIN_LIMITS } from '../../../types/limits'

export { strict } from '../../../types/schema'
export const PHONE_PATTERN = LOGIN_LIMITS.phonePattern
