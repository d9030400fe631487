export default definePageConfig({
  navigationBarTitleText: '',
  backgroundColor: '#F8F8F8',
  enableShareAppMessage: true
})
