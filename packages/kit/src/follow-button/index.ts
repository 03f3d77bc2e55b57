export { FollowButton } from './follow-button';
export type { FollowButtonProps } from './follow-button';
