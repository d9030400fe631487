/**
 * The mini-program (and Jest): Taro's toast, modal and loading calls are at hand, so `withFeedbackApi`
 * calls `fn` at once. The H5 build resolves utils/feedbackApi.h5.ts instead, which fetches them first.
 */
import { taroFeedback, type TaroFeedback } from './taroFeedback'

export function withFeedbackApi<T> (fn: (api: TaroFeedback) => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn(taroFeedback))
  } catch (e) {
    return Promise.reject(e)
  }
}
