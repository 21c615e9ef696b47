export {
  memberHttp,
  currentUser,
  getSessionState,
  getAccessToken,
  onSessionEvents,
  refreshSession,
  resendVerification,
  restoreSession,
  signIn,
  signOut,
  signUp,
  updateSessionUser,
} from './session';
export type { SessionEvents, SignOutReason, SignUpResult } from './session';
export type { AuthSession, SessionState, SessionUser } from './session-types';
export { useSession } from './useSession';
export { clearPendingPayment, rememberPendingPayment } from './pending-payment';
export { changePassword, requestPasswordReset, resetPassword, signOutEverywhere } from './password';
export { ApiError, isErrorAnswer } from '../http/api-error';
