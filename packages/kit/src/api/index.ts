export { configureApi, getApiBaseUrl, resolveApiUrl } from './api-config';
export { ApiError, apiRequest, failureDescription, getJson, renewSession } from './api-client';
export type { ApiRequestOptions, RenewOutcome } from './api-client';
export { clearStoredAuth, readStoredAuth, storeAuth, AUTH_STORAGE_KEY } from './auth-storage';
export type { StoredAuth, SessionUser } from './auth-storage';
export { callApi, callTarget, readCall } from './call-api';
export type { CallOptions, CallTargetOptions } from './call-api';
