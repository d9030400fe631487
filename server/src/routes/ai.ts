/**
 * The AI calls (types/ai.ts) through the Dify-compatible adapter. Each call is one chat message; the
 * spec's fields map onto Dify's: a prompt goes in `inputs.prompt` (the app's prompt variable) and is
 * also said before the query, so that an app without that variable still follows it; a translation is
 * asked in words with the two languages named; the provider's `user` is the caller's account.
 * Order: the per-minute limit (429), the pictures' URLs (400, security/fetchableUrl.ts), the daily
 * budget (422, http/aiBudget.ts), then the provider.
 */
import type { FastifyRequest } from 'fastify'
import { aiRoutes as r } from '../../../types/ai'
import type { Api, AppContext } from '../context'
import { enforceLimits } from '../http/request'
import { configured, providerCall } from '../http/provider-call'
import { defineRoute } from '../http/route'
import { requireFetchable } from '../http/fetchable'
import { spendAiBudget } from '../http/aiBudget'
import { aiUsageToday } from '../domain/ops/aiBudget'
import { settingsOf } from '../domain/ops/settings'
import { RULES } from '../security/rules'
import type { ChatRequest } from '../providers/dify'

const LANGUAGE = { zh: 'Simplified Chinese', en: 'English' } as const

/** The query a translation sends. */
export function translationQuery (text: string, from: 'zh' | 'en' | 'auto', to: 'zh' | 'en'): string {
  const source = from === 'auto' ? 'its language' : LANGUAGE[from]
  return `Translate the following text from ${source} into ${LANGUAGE[to]}. Answer with the translation only, nothing else.\n\n${text}`
}

const withPrompt = (prompt: string | undefined, query: string) => (prompt?.trim() ? `${prompt.trim()}\n\n${query}` : query)

export function aiRoutesOf (app: Api, ctx: AppContext): void {
  const ask = async (userId: number, req: Omit<ChatRequest, 'user'>, request: FastifyRequest) => {
    const ai = configured(ctx.ai, 'ai')
    // the limit first: checking a picture's URL resolves its host name, which is not free either
    await enforceLimits(ctx, [[RULES.aiPerUser, String(userId)]])
    // the pictures the provider will fetch: each the shop's own or public (400 naming files.N.url)
    await requireFetchable(ctx, request, (req.files ?? []).map((f, i) => ({ field: `files.${i}.url`, url: f.url })))
    const ticket = await spendAiBudget(ctx, userId)
    return providerCall('ai', () => ticket.call(() => ai.chat({ ...req, user: `shop-user-${userId}` })))
  }

  defineRoute(app, ctx, r.usage, async () => {
    const s = await settingsOf(ctx.db)
    const today = await aiUsageToday(ctx.db, ctx.clock(), { perAccount: s.aiDailyPerAccount, perShop: s.aiDailyPerShop })
    return { ...today, perAccount: s.aiDailyPerAccount, perShop: s.aiDailyPerShop }
  })
  defineRoute(app, ctx, r.analysis, async ({ body, userId, request }) => ask(userId, {
    query: withPrompt(body.prompt, body.query),
    inputs: body.prompt ? { prompt: body.prompt } : {},
    conversationId: body.conversation_id,
    files: body.files
  }, request))
  defineRoute(app, ctx, r.questionRecognize, async ({ body, userId, request }) => ask(userId, {
    query: body.query, conversationId: body.conversation_id, files: body.files
  }, request))
  defineRoute(app, ctx, r.text2text, async ({ body, userId, request }) => ask(userId, {
    query: withPrompt(body.prompt, body.text),
    inputs: body.prompt ? { prompt: body.prompt } : {},
    conversationId: body.conversationId
  }, request))
  defineRoute(app, ctx, r.textTransform, async ({ body, userId, request }) => ask(userId, {
    query: translationQuery(body.query, body.from, body.to),
    inputs: { from: body.from, to: body.to },
    conversationId: body.conversation_id
  }, request))
}
