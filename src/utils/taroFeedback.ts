/**
 * Taro's toast, modal and loading indicator, as utils/feedback uses them. On H5 this module is a chunk
 * of its own (see utils/feedbackApi.h5.ts): Taro's H5 implementation of these calls (their markup,
 * styles and icon font) is about a tenth of the JavaScript the app needs to start, and the first pages
 * show none of it before the shopper does something.
 */
import Taro from '@tarojs/taro'

export const taroFeedback = {
  showToast: (o: Taro.showToast.Option) => Taro.showToast(o),
  showModal: (o: Taro.showModal.Option) => Taro.showModal(o),
  showLoading: (o: Taro.showLoading.Option) => Taro.showLoading(o),
  hideLoading: () => Taro.hideLoading()
}

export type TaroFeedback = typeof taroFeedback
