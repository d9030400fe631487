/**
 * What the domain asks of a logger: a line at info, warn or error, with its fields first and the message
 * second, or the message alone. Fastify's logger (pino) is one; the domain names this instead of Fastify.
 */
export interface Logger {
  info (fieldsOrMessage: unknown, message?: string): void
  warn (fieldsOrMessage: unknown, message?: string): void
  error (fieldsOrMessage: unknown, message?: string): void
}
