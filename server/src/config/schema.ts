/**
 * Every environment variable the server reads, as one TypeBox schema: what each must hold, its default
 * when unset and what it is for, gathered from the areas that parse them. .env.example documents the
 * same list (test/server/config.test.ts holds them together).
 */
import { Type, type Static } from 'typebox'
import { Value } from 'typebox/value'
import { enginesVariables } from './engines'
import { eventsVariables } from './events'
import { mailVariables } from './mail'
import { mapsVariables } from './maps'
import { mediaVariables } from './media'
import { operatorsVariables } from './operators'
import { serverVariables } from './server'
import { servicesVariables } from './services'
import { wechatVariables } from './wechat'
import { wechatPayVariables } from './wechatpay'

export const ENV_SCHEMA = Type.Object({
  ...serverVariables,
  ...mailVariables,
  ...wechatVariables,
  ...wechatPayVariables,
  ...eventsVariables,
  ...operatorsVariables,
  ...mapsVariables,
  ...servicesVariables,
  ...enginesVariables,
  ...mediaVariables
})

/** The environment as the schema types it. */
export type EnvVariables = Static<typeof ENV_SCHEMA>
export type EnvName = keyof typeof ENV_SCHEMA.properties

/** Every variable's name, area by area. */
export const ENV_NAMES = Object.keys(ENV_SCHEMA.properties) as EnvName[]

/** The default of every variable that has one (the rest are off, or follow another, when unset). */
export const DEFAULTS: Readonly<EnvVariables> = Value.Default(ENV_SCHEMA, {}) as EnvVariables
