/** What `npm run backup` and `npm run restore` share: their arguments, the storage settings, signals. */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ConfigError, loadStorageConfig, type StorageConfig } from '../config'
import { loadDotEnv } from '../dotenv'
import { OpsError } from './errors'

/** Arguments by node:util's parseArgs (strict); a mistake is an OpsError with the usage (exit code 2). */
export function commandArgs<T extends NonNullable<ParseArgsConfig['options']>> (argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (err) {
    throw new OpsError(`${(err as Error).message.split('\n')[0]}. Usage: ${usage}`, 2)
  }
}

/** DATA_DIR and DATABASE_URL as the server reads them (./.env included). */
export function storage (): StorageConfig {
  loadDotEnv()
  try {
    return loadStorageConfig()
  } catch (err) {
    if (err instanceof ConfigError) throw new OpsError(err.problems.join('; '))
    throw err
  }
}

/** Ctrl-C or SIGTERM: exit through process.exit, so that the commands' exit handlers remove their temporary files. */
export function exitOnSignals (): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`${signal}: stopped\n`)
      process.exit(130)
    })
  }
}

/** npm keeps `--force` (and other options before `--`) for itself: a hint for when that happened. */
export function npmAteOption (name: string): string {
  return process.env[`npm_config_${name}`] !== undefined && process.env.npm_lifecycle_event
    ? ` (npm took --${name} for itself: write \`npm run ${process.env.npm_lifecycle_event} -- ... --${name}\`)`
    : ''
}
