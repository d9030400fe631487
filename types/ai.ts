/**
 * The AI calls of spec 7 (issue 11), spoken to a Dify-compatible chat API (POST {base}/chat-messages,
 * blocking; Dify can be self-hosted): AiAnalysis {prompt, query, conversation_id, user, files},
 * questionRecognize {query, conversation_id, user, files}, text/text2text {text, prompt, conversationId}
 * and textTransform {query, from, to, conversation_id, user} (translation). Files are images by URL:
 * {type: 'image', transfer_method: 'remote_url', url}. The `user` Dify sees is always the caller's
 * account (a client's `user`, the app id by the spec, is kept apart from it): nobody reaches another
 * account's conversation by naming it.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { AI_LIMITS } from './limits'
import { EmptyBody, MultilineText, Obj, StringEnum, Text } from './schema'

export const AiFile = Obj({
  type: Type.Literal('image'),
  transfer_method: Type.Literal('remote_url'),
  url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: AI_LIMITS.urlMax })
})
export type AiFile = Static<typeof AiFile>

const Query = MultilineText({ minLength: 1, maxLength: AI_LIMITS.queryMax })
const Prompt = MultilineText({ maxLength: AI_LIMITS.promptMax })
const ConversationId = Type.String({ pattern: '^[A-Za-z0-9-]{0,64}$', description: 'Empty or absent: a new conversation' })
const ClientUser = Text({ maxLength: 100, description: 'The app id (spec); the provider sees the caller\'s account' })
const Files = Type.Array(AiFile, { maxItems: AI_LIMITS.filesMax })

export const AiAnalysisRequest = Obj({
  prompt: Type.Optional(Prompt),
  query: Query,
  conversation_id: Type.Optional(ConversationId),
  user: Type.Optional(ClientUser),
  files: Type.Optional(Files)
})
export type AiAnalysisRequest = Static<typeof AiAnalysisRequest>

export const QuestionRecognizeRequest = Obj({
  query: Query,
  conversation_id: Type.Optional(ConversationId),
  user: Type.Optional(ClientUser),
  files: Type.Optional(Files)
})
export type QuestionRecognizeRequest = Static<typeof QuestionRecognizeRequest>

export const Text2TextRequest = Obj({
  text: Query,
  prompt: Type.Optional(Prompt),
  conversationId: Type.Optional(ConversationId)
})
export type Text2TextRequest = Static<typeof Text2TextRequest>

export const Language = StringEnum(['zh', 'en'] as const)
export const TextTransformRequest = Obj({
  query: Query,
  from: StringEnum(['zh', 'en', 'auto'] as const),
  to: Language,
  conversation_id: Type.Optional(ConversationId),
  user: Type.Optional(ClientUser)
})
export type TextTransformRequest = Static<typeof TextTransformRequest>

export const AiAnswer = Type.Object({
  answer: Type.String(),
  conversationId: Type.String(),
  messageId: Type.String()
})
export type AiAnswer = Static<typeof AiAnswer>

/** Today's use of the daily AI budget (AI_BUDGET, the settings aiDailyPerAccount and aiDailyPerShop), for operators. */
export const AiUsage = Type.Object({
  /** The China day counted (YYYY-MM-DD). */
  day: Type.String(),
  shopUsed: Type.Integer(),
  perShop: Type.Integer(),
  perAccount: Type.Integer(),
  /** The most any one account used today. */
  accountMostUsed: Type.Integer(),
  /** Accounts that used their whole budget today. */
  accountsAtBudget: Type.Integer()
})
export type AiUsage = Static<typeof AiUsage>

const tag = 'helpers'
const described = 'Dify-compatible chat API (AI_API_BASE, AI_API_KEY); 422 "not configured" without a key; 20 a minute per account; a daily budget per account and per shop (422 with data {reason: "dailyBudget", scope}); a picture\'s URL must be the shop\'s own media or a public https URL whose host resolves only to public addresses (400 naming files.N.url); the provider\'s refusal is a 422 with its message.'
export const aiRoutes = {
  analysis: route({ method: 'POST', url: '/api/AiAnalysis', auth: 'user', tag, body: AiAnalysisRequest, data: AiAnswer, summary: 'Ask the AI (prompt, query, images by URL)', description: described }),
  questionRecognize: route({ method: 'POST', url: '/api/questionRecognize', auth: 'user', tag, body: QuestionRecognizeRequest, data: AiAnswer, summary: 'Read the question in a screenshot (query, images by URL)', description: described }),
  text2text: route({ method: 'POST', url: '/api/text/text2text', auth: 'user', tag, body: Text2TextRequest, data: AiAnswer, summary: 'Rewrite a text as the prompt asks', description: described }),
  usage: route({ method: 'POST', url: '/api/operator/aiUsage', auth: 'operator', tag: 'operator', body: EmptyBody, data: AiUsage, summary: 'Today\'s AI calls against the daily budgets (per shop, per account)' }),
  textTransform: route({ method: 'POST', url: '/api/textTransform', auth: 'user', tag, body: TextTransformRequest, data: AiAnswer, summary: 'Translate between Chinese and English', description: described })
}
