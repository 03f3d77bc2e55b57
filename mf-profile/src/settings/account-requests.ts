import type { ChangePasswordRequest, ChangePasswordResponse } from '@campus/contracts';
import { apiRequest } from '@campus/kit/api';

/** `PUT /api/auth/password`: every other session is revoked; the answer is this one's new token. */
export function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return apiRequest<ChangePasswordResponse>('/api/auth/password', { method: 'PUT', body });
}

/** `POST /api/auth/logout-all`: every token of the member, this one included, stops working. */
export async function signOutEverywhere(): Promise<void> {
  await apiRequest<null>('/api/auth/logout-all', { method: 'POST' });
}

/** `DELETE /api/users/:id` with the member's password: the account and all it made are removed. */
export async function deleteAccount(userId: number, password: string): Promise<void> {
  await apiRequest<null>(`/api/users/${userId}`, { method: 'DELETE', body: { password } });
}
