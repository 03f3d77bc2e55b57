// Members' text as the apps show it: direction from the text itself, web addresses as links.
export { Linkified, UserText, USER_LINK_REL } from './linkified-text';
export type { UserTextProps } from './linkified-text';
