/** Variables from ./.env, without overriding the real environment (the server and the ops commands). */
import fs from 'node:fs'
import path from 'node:path'
import { parseEnv } from 'node:util'

export function loadDotEnv (): void {
  const file = path.resolve('.env')
  if (!fs.existsSync(file)) return
  const parsed = parseEnv(fs.readFileSync(file, 'utf8')) as Record<string, string>
  for (const [k, v] of Object.entries(parsed)) if (process.env[k] === undefined) process.env[k] = v
}
