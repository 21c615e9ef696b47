export * from './useAdminData';
export { ApiError } from '#client/lib/http/api-error';
export type * from '#sync/rest-api/admin';
export type { PaymentProvider } from '#sync/rest-api/settings';
export type * from '#sync/rest-api/moderation';
export type { AdminHashtag } from '#sync/rest-api/discovery';
