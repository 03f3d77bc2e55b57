// Privacy and safety (issue 38): the Mute and Block actions the '⋯' menu offers on others' posts,
// comments and profiles, the collapsed row of a post with a muted word, and the calls behind
// them and the Settings lists.
export { useSafetyActions, useSafetyMenuItems } from './use-safety-actions';
export type { SafetyActionsOptions, SafetyMenuItem } from './use-safety-actions';
export { MutedPostRow } from './muted-post-row';
export {
  addMutedWord,
  blockMember,
  MUTE_CHOICES,
  muteMember,
  removeMutedWord,
  unblockMember,
  unmuteMember,
} from './safety-requests';
