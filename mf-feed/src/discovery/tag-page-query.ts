import {
  callRoutes,
  isTag,
  normalizeTag,
  type TagFollowResponse,
  type TagPage,
} from '@campus/contracts';
import { callApi, readCall } from '@campus/kit/api';

/** The tag of a `/tags/:tag` path as the API stores it, or null when it cannot be a tag. */
export function tagOfPath(raw: string | undefined): string | null {
  const tag = normalizeTag((raw ?? '').replace(/^#/, ''));
  return isTag(tag) ? tag : null;
}

/** The SWR key of a tag's pages, without the cursor. */
export const tagPageKey = (tag: string): [string, string] => ['/api/tags', tag];

/** `GET /api/tags/:tag?cursor=`: the tag's posts after `cursor`, newest first, with its count. */
export function fetchTagPage(
  [, tag = '']: readonly string[],
  cursor: string,
): Promise<TagPage | null> {
  return readCall(callRoutes.tagPage, { params: { tag }, query: { cursor: cursor || undefined } });
}

/** `POST` (follow) or `DELETE` (unfollow) `/api/tags/:tag/follow`. */
export function setTagFollowed(tag: string, follow: boolean): Promise<TagFollowResponse> {
  return follow
    ? callApi(callRoutes.followTag, { params: { tag }, body: {} })
    : callApi(callRoutes.unfollowTag, { params: { tag } });
}
