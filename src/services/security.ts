/** Account security (types/security.ts): the page's overview, password, re-authentication by code, bindings, sessions, limits, the birth-date correction, deleting the account. */
import type { BindCodeRequest, BindRequest, ReauthCodeRequest, CorrectionRequest, DeleteAccountRequest, CorrectionReviewRequest, LimitsRequest, OperatorCorrectionListRequest, PasswordChangeRequest, securityRoutes } from '~types/security'
import { postRoute } from './request'

type S = typeof securityRoutes

export const securityApi = {
  overview: () => postRoute<S['overview']>('/api/security/overview', {}),
  changePassword: (body: PasswordChangeRequest) => postRoute<S['passwordChange']>('/api/security/password', body),
  reauthCode: (body: ReauthCodeRequest) => postRoute<S['reauthCode']>('/api/security/reauthCode', body),
  bindCode: (body: BindCodeRequest) => postRoute<S['bindCode']>('/api/security/bindCode', body),
  bind: (body: BindRequest) => postRoute<S['bind']>('/api/security/bind', body),
  deleteAccount: (body: DeleteAccountRequest) => postRoute<S['deleteAccount']>('/api/security/deleteAccount', body),
  endSession: (sessionId: number) => postRoute<S['sessionEnd']>('/api/security/sessionEnd', { sessionId }),
  endOthers: () => postRoute<S['sessionsEndOthers']>('/api/security/sessionsEndOthers', {}),
  logoutAll: () => postRoute<S['logoutAll']>('/api/security/logoutAll', {}),
  setLimits: (body: LimitsRequest) => postRoute<S['limits']>('/api/security/limits', body),
  requestCorrection: (body: CorrectionRequest) => postRoute<S['correctionRequest']>('/api/security/birthDateCorrection', body),
  corrections: (q: OperatorCorrectionListRequest) => postRoute<S['operatorCorrections']>('/api/operator/birthDateCorrections', q),
  reviewCorrection: (body: CorrectionReviewRequest) => postRoute<S['operatorCorrectionReview']>('/api/operator/birthDateReview', body)
}
