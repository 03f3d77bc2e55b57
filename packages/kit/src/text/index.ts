// Members' text as the apps show it: direction from the text itself; web addresses, and in posts
// and comments #tags and @mentions (issue 40), as links.
export { Linkified, UserText, USER_LINK_REL } from './linkified-text';
export type { TextEntitiesProps, UserTextProps } from './linkified-text';
export { mentionPath, tagPath, textSegments } from './text-entities';
export type { FoundLink, TextSegment } from './text-entities';
