import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../context'
import { fail } from '../core/errors'
import { RULES } from '../security/rules'
import type { RateRule } from '../security/rateLimiter'
import { ProviderUnavailableError } from '../providers/errors'
import { observedCall } from '../providers/calls'
import { channelOf, type CodePurpose } from '../domain/account/codes'
import { enforceLimits } from './request'

/**
 * Rate-limits, issues, delivers (and in development logs) a code for a phone or address. The limits
 * per target count every code sent there, whatever its purpose (login, binding, re-authentication).
 */
export async function sendCode (
  request: FastifyRequest, ctx: AppContext, purpose: CodePurpose, target: string,
  deliver: (code: string) => Promise<void>,
  /** Further limits of this kind of code (e.g. per account), given back like the target's when delivery fails. */
  extraLimits: Array<[RateRule, string]> = []
): Promise<void> {
  const channel = channelOf(purpose)
  const targetKey = `${channel}:${target}`
  await enforceLimits(ctx, [
    [RULES.codeSendPerTarget, targetKey],
    [RULES.codeSendPerTargetDaily, targetKey],
    [RULES.codeSendPerIp, request.ip],
    ...extraLimits
  ])
  const { id, code } = await ctx.codes.issue(purpose, target)
  try {
    await observedCall(channel, () => deliver(code))
  } catch (err) {
    await ctx.codes.discard(id)
    // the person did not get a code: let them ask again at once
    await ctx.limiter.refund(RULES.codeSendPerTarget, targetKey)
    await ctx.limiter.refund(RULES.codeSendPerTargetDaily, targetKey)
    for (const [rule, key] of extraLimits) await ctx.limiter.refund(rule, key)
    if (err instanceof ProviderUnavailableError) throw fail.providerUnavailable(channel)
    throw err
  }
  // no code, number or address in the log: where no provider is configured (development), the log
  // stand-ins (LogSmsSender, LogMailer) are the developer's outbox and show the message itself
  request.log.info({ purpose }, 'one-time code sent')
}
