/**
 * What a link in members' text carries: it opens in a new tab that cannot reach back to Campus
 * (`noopener`), passes no reputation (`nofollow`) and is marked as user-generated (`ugc`).
 */
export const USER_LINK_REL = 'noopener nofollow ugc';
