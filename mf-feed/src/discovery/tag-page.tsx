import { useState } from 'react';
import { useParams } from 'react-router-dom';
import styled from 'styled-components';
import { ApiError, failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, EmptyState, visuallyHidden } from '@campus/kit/ui';
import { PostPageList } from './post-page-list';
import { usePostPages } from './post-pages';
import { fetchTagPage, setTagFollowed, tagOfPath, tagPageKey } from './tag-page-query';

const Header = styled.header`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  h1 {
    margin: 0;
    font-size: 1.5rem;
    overflow-wrap: anywhere;
  }
  p {
    margin: ${({ theme }) => theme.space(1)} 0 0;
    font-size: 0.875rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const postsCountText = (count: number) => `${count} ${count === 1 ? 'post' : 'posts'}`;

/**
 * Follow / Unfollow a tag (a toggle button, aria-pressed): shown at once, put back with a toast
 * when the API refuses (with its own words for a 400, such as the followed-tags limit).
 */
function FollowTagButton({ tag, followed }: { tag: string; followed: boolean }) {
  const [shown, setShown] = useState(followed);
  const [busy, setBusy] = useState(false);
  // The page was read again (another tab followed it, a refresh): show what the API says now.
  const [answered, setAnswered] = useState(followed);
  if (answered !== followed) {
    setAnswered(followed);
    setShown(followed);
  }

  const toggle = async () => {
    const next = !shown;
    setShown(next);
    setBusy(true);
    try {
      const answer = await setTagFollowed(tag, next);
      setShown(answer.followed);
    } catch (error) {
      setShown(!next);
      const fallback = next
        ? `Could not follow #${tag}. Please try again.`
        : `Could not unfollow #${tag}. Please try again.`;
      toast({
        title: 'Error',
        description:
          error instanceof ApiError && error.status === 400 && error.serverMessage
            ? error.serverMessage
            : failureDescription(error, fallback),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      variant={shown ? 'secondary' : 'primary'}
      aria-pressed={shown}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {shown && <span aria-hidden="true">✓</span>}
      Follow<span style={visuallyHidden}> #{tag}</span>
    </Button>
  );
}

/**
 * `/tags/:tag` (issue 40): '#tag', how many posts carry it, Follow (its posts join the
 * Following tab), then its posts newest first with the feed's cards, paged by the API's cursor.
 * A tag no post has is an empty page; something that cannot be a tag says so.
 */
export default function TagPage() {
  const { tag: raw } = useParams();
  const tag = tagOfPath(raw);
  const list = usePostPages(tag ? tagPageKey(tag) : null, fetchTagPage);

  if (!tag) {
    return (
      <section aria-labelledby="tag-title">
        <Header>
          <h1 id="tag-title">Not a tag</h1>
        </Header>
        <EmptyState description="A tag is letters, digits and _ after a #, such as #campus_life." />
      </section>
    );
  }
  const first = list.first;
  return (
    <section aria-labelledby="tag-title">
      <Header>
        <div>
          <h1 id="tag-title" dir="auto">
            #{first?.tag ?? tag}
          </h1>
          <p aria-live="polite">{first ? postsCountText(first.postsCount) : '\u00a0'}</p>
        </div>
        {first && <FollowTagButton tag={first.tag} followed={first.isFollowed} />}
      </Header>
      <PostPageList
        list={list}
        label={`Posts tagged #${first?.tag ?? tag}`}
        failed="Failed to fetch posts"
        empty={`No posts with #${first?.tag ?? tag} yet.`}
      />
    </section>
  );
}
