import { AVATAR_FIELD, callRoutes, type ProfileUpdate, type PublicUser } from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';

/** A failed upload, carrying the text the toast shows (spec §8: defaults to 'Upload failed'). */
export class UploadError extends Error {}

export async function uploadAvatar(file: File): Promise<string> {
  const form = new FormData();
  form.append(AVATAR_FIELD, file, file.name);
  try {
    const { avatarUrl } = await callApi(callRoutes.uploadAvatar, { body: form });
    return avatarUrl;
  } catch (error) {
    throw new UploadError((error instanceof ApiError && error.serverMessage) || 'Upload failed');
  }
}

export function saveProfile(userId: number, update: ProfileUpdate): Promise<PublicUser> {
  return callApi(callRoutes.updateProfile, { params: { id: userId }, body: update });
}
