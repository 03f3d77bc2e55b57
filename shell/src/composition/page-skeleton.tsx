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

/**
 * What a remote page shows while its code arrives. `rightColumn`: the page will have a right
 * column (the feed's Who to follow), so the skeleton asks the layout for the same wide main column
 * at once (`data-right-column`, see app-layout.tsx) and nothing moves when the page arrives.
 */
export function PageSkeleton({ rightColumn = false }: { rightColumn?: boolean }) {
  return (
    <Column
      aria-busy="true"
      aria-label="Loading page"
      data-testid="page-skeleton"
      data-right-column={rightColumn ? '' : undefined}
    >
      {[0, 1, 2].map((row) => (
        <div key={row}>
          <Row>
            <Skeleton $width="40px" $height="40px" $round />
            <Skeleton $width="40%" />
          </Row>
          <Skeleton $height="64px" style={{ marginTop: 12 }} />
        </div>
      ))}
    </Column>
  );
}
