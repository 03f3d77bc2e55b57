import {
  callRoutes,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
} from '@campus/contracts';
import { callApi } from '@campus/kit/api';

/**
 * `PUT /api/auth/password`: every session is revoked; this device gets a new one (its cookies
 * come with the answer; the answer's `token` is for other clients).
 */
export function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return callApi(callRoutes.changePassword, { body });
}

/** `POST /api/auth/logout-all`: every token of the member, this one included, stops working. */
export async function signOutEverywhere(): Promise<void> {
  await callApi(callRoutes.signOutEverywhere);
}

/** `DELETE /api/users/:id` with the member's password: the account and all it made are removed. */
export async function deleteAccount(userId: number, password: string): Promise<void> {
  await callApi(callRoutes.deleteAccount, { params: { id: userId }, body: { password } });
}
