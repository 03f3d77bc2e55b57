// Writing @mentions (issue 40): the field of the composers with its member suggestions. An entry
// point of its own, fetched with the writing surfaces (not with the posts a page first shows).
export { MentionTextArea, isOverLimit, overLimitText, useMentionPicks } from './mention-text-area';
export type { MentionListState, MentionTextAreaProps } from './mention-text-area';
export { activeMention, insertMention, mentionIdsIn } from './mention-query';
export type { ActiveMention, MentionPick } from './mention-query';
