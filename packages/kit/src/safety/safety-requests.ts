// Privacy and safety (issue 38): the calls behind the Mute and Block menu items and the
// Settings lists. Zod-free, like the report menu's requests: every post card carries them.
import {
  callRoutes,
  type BlockResponse,
  type MuteDuration,
  type MutedWord,
  type MuteResponse,
} from '@campus/contracts';
import { callApi } from '@campus/kit/api';

/** The choices of a mute's length, in the order they are offered. */
export const MUTE_CHOICES: ReadonlyArray<{ duration: MuteDuration; label: string }> = [
  { duration: '1d', label: '1 day' },
  { duration: '7d', label: '7 days' },
  { duration: 'forever', label: 'Until I unmute' },
];

export function blockMember(userId: number): Promise<BlockResponse> {
  return callApi(callRoutes.blockMember, { params: { id: userId }, body: {} });
}

export function unblockMember(userId: number): Promise<BlockResponse> {
  return callApi(callRoutes.unblockMember, { params: { id: userId } });
}

export function muteMember(userId: number, duration: MuteDuration): Promise<MuteResponse> {
  return callApi(callRoutes.muteMember, { params: { id: userId }, body: { duration } });
}

export function unmuteMember(userId: number): Promise<MuteResponse> {
  return callApi(callRoutes.unmuteMember, { params: { id: userId } });
}

export function addMutedWord(phrase: string, duration: MuteDuration): Promise<MutedWord> {
  return callApi(callRoutes.addMutedWord, { body: { phrase, duration } });
}

export async function removeMutedWord(id: number): Promise<void> {
  await callApi(callRoutes.removeMutedWord, { params: { id } });
}
