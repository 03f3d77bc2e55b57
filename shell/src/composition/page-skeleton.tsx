import type { ReactElement } from 'react';
import styled from 'styled-components';
import { Skeleton } from '@campus/kit/ui';

const Column = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};
`;

const Row = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  align-items: center;
`;

const Lines = styled.div`
  display: grid;
  flex: 1;
  gap: ${({ theme }) => theme.space(2)};
`;

/**
 * The shape of the page that is loading (issue 41: a profile or the notifications drawn as posts
 * read as the wrong page arriving):
 * - `posts`: post cards (the feeds, a post, a tag, bookmarks, search results);
 * - `profile`: a header (avatar, name, handle, bio, counts) above the posts;
 * - `list`: rows of a face and one or two lines (notifications, followers, people);
 * - `form`: labelled fields (settings, the profile editor);
 * - `dashboard`: figures and a chart (the admin's pages).
 */
export type PageShape = 'posts' | 'profile' | 'list' | 'form' | 'dashboard';

function PostsShape({ count = 3 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, row) => (
        <div key={row} data-shape-part="post">
          <Row>
            <Skeleton $width="40px" $height="40px" $round />
            <Skeleton $width="40%" />
          </Row>
          <Skeleton $height="64px" style={{ marginTop: 12 }} />
        </div>
      ))}
    </>
  );
}

function ProfileShape() {
  return (
    <>
      <Row data-shape-part="profile-header">
        <Skeleton $width="88px" $height="88px" $round />
        <Lines>
          <Skeleton $width="50%" $height="24px" />
          <Skeleton $width="30%" />
        </Lines>
      </Row>
      <Skeleton $width="80%" />
      <Row>
        <Skeleton $width="96px" />
        <Skeleton $width="96px" />
      </Row>
      <PostsShape count={2} />
    </>
  );
}

function ListShape() {
  return (
    <>
      {Array.from({ length: 6 }, (_, row) => (
        <Row key={row} data-shape-part="list-row">
          <Skeleton $width="36px" $height="36px" $round />
          <Lines>
            <Skeleton $width="65%" />
            <Skeleton $width="35%" $height="12px" />
          </Lines>
        </Row>
      ))}
    </>
  );
}

function FormShape() {
  return (
    <>
      <Skeleton $width="35%" $height="24px" />
      {Array.from({ length: 4 }, (_, row) => (
        <Lines key={row} data-shape-part="field">
          <Skeleton $width="25%" $height="12px" />
          <Skeleton $height="40px" />
        </Lines>
      ))}
    </>
  );
}

function DashboardShape() {
  return (
    <>
      <Row>
        {[0, 1, 2].map((card) => (
          <Skeleton key={card} $height="72px" data-shape-part="figure" />
        ))}
      </Row>
      <Skeleton $height="220px" data-shape-part="chart" />
    </>
  );
}

const SHAPES: Record<PageShape, () => ReactElement> = {
  posts: () => <PostsShape />,
  profile: ProfileShape,
  list: ListShape,
  form: FormShape,
  dashboard: DashboardShape,
};

/**
 * What a remote page shows while its code arrives, in the page's own shape (`shape`).
 * `rightColumn`: the page will have a right column (the feed's Who to follow), so the skeleton
 * asks the layout for the same wide main column at once (`data-right-column`, see
 * app-layout.tsx) and nothing moves when the page arrives.
 */
export function PageSkeleton({
  rightColumn = false,
  shape = 'posts',
}: {
  rightColumn?: boolean;
  shape?: PageShape;
}) {
  const Shape = SHAPES[shape];
  return (
    <Column
      aria-busy="true"
      aria-label="Loading page"
      data-testid="page-skeleton"
      data-shape={shape}
      data-right-column={rightColumn ? '' : undefined}
    >
      <Shape />
    </Column>
  );
}
