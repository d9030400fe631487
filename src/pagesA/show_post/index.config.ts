export default definePageConfig({
  navigationBarTitleText: '',
  backgroundColor: '#F8F8F8',
  enablePullDownRefresh: true,
  enableShareAppMessage: true,
  enableShareTimeline: true
})
