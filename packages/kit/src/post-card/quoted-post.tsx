import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Post } from '@campus/contracts';
import {
  TimeAgo,
  exactTime,
  handleFromEmail,
  relativeTime,
  useMinuteClock,
} from '@campus/kit/format';
import { EditedLabel } from '@campus/kit/own-words';
import { UserText } from '@campus/kit/text';
import { touchHitArea, touchTallerBox } from '@campus/kit/theme';
import { Avatar, Badge } from '@campus/kit/ui';
import { ClampedText } from './clamped-text';
import { imagesOf } from './image-sources';
import { PostImages } from './post-images';

/** One line that ends in an ellipsis when it does not fit (names and handles in cards). */
export const ellipsis = `
  min-width: 0;
  max-width: 100%;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
`;

export const Meta = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(1.5)};
  align-items: center;
  min-width: 0;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};

  a {
    color: inherit;
    text-decoration: none;
  }
  a:hover {
    text-decoration: underline;
  }
  .author {
    color: ${({ theme }) => theme.colors.text};
    font-weight: 700;
  }
  .author,
  .handle {
    ${ellipsis}
  }
  /* Fingertip-sized on a phone (issue 41), nothing moved: the time may wrap alone onto a line
     of its own, and a long name sits alone on its line. */
  a.time {
    ${touchHitArea}
  }
  a.author {
    ${touchTallerBox}
  }
`;

const Row = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
`;

const Body = styled.div`
  flex: 1;
  min-width: 0;
  display: grid;
  gap: ${({ theme }) => theme.space(1.5)};
`;

const FullText = styled(UserText)`
  margin: 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Deleted = styled.p`
  margin: 0;
  padding: ${({ theme }) => theme.space(3)};
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  color: ${({ theme }) => theme.colors.textMuted};
  font-style: italic;
`;

/** Spec §3: a repost keeps `originalPostId`; `originalPost` is null once the original is deleted. */
export const ORIGINAL_DELETED_TEXT = 'The original post has been deleted.';

/** The accessible name of a link to a post by its time: "Open post, 5 minutes ago (…exact…)". */
export function openLabel(what: string, createdAt: string): string {
  return `Open ${what}, ${relativeTime(createdAt)} (${exactTime(createdAt)})`;
}

/**
 * A post's author line and content: avatar, name linking to /profile/{authorId}, handle, relative
 * time (linking to the post when `href` is given), the JD badge, then the clamped text and the
 * post's images (issue 39).
 */
export function PostBody({
  post,
  href,
  onOpen,
  clamp = true,
  imagePriority = false,
}: {
  post: Omit<Post, 'originalPost'>;
  /** Makes the time a link to the post (the keyboard way to open it). */
  href?: string;
  onOpen?: () => void;
  clamp?: boolean;
  /** The page's first post: its images load at once, the first with high priority. */
  imagePriority?: boolean;
}) {
  const images = imagesOf(post);
  useMinuteClock(); // the link's name says the time too
  return (
    <Row>
      <Avatar name={post.author.name} src={post.author.avatarUrl} />
      <Body>
        <Meta>
          <Link
            className="author"
            dir="auto"
            title={post.author.name}
            to={`/profile/${post.author.id}`}
          >
            {post.author.name}
          </Link>
          {post.author.affiliation === 'alumni' && <Badge>Alumni</Badge>}
          <span className="handle">{handleFromEmail(post.author.email)}</span>
          <span aria-hidden="true">·</span>
          {href ? (
            <Link
              className="time"
              to={href}
              aria-label={openLabel('post', post.createdAt)}
              onClick={onOpen}
            >
              <TimeAgo date={post.createdAt} />
            </Link>
          ) : (
            <TimeAgo date={post.createdAt} />
          )}
          <EditedLabel kind="post" id={post.id} editedAt={post.editedAt} />
          {post.isJdTagged && <Badge $tone="primary">JD</Badge>}
        </Meta>
        {clamp ? (
          <ClampedText text={post.content} mentions={post.mentions} />
        ) : (
          <FullText text={post.content} mentions={post.mentions} tags />
        )}
        {images.length > 0 && <PostImages images={images} priority={imagePriority} />}
      </Body>
    </Row>
  );
}

/** The original inside a repost, or a plain note when it has been deleted. */
export function QuotedPost({
  post,
  clamp = true,
  imagePriority = false,
}: {
  post: Post;
  clamp?: boolean;
  imagePriority?: boolean;
}) {
  if (!post.originalPost) return <Deleted>{ORIGINAL_DELETED_TEXT}</Deleted>;
  return <PostBody post={post.originalPost} clamp={clamp} imagePriority={imagePriority} />;
}
