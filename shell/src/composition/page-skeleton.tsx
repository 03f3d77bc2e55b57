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

/** What a remote page shows while its code arrives. */
export function PageSkeleton() {
  return (
    <Column aria-busy="true" aria-label="Loading page" data-testid="page-skeleton">
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
