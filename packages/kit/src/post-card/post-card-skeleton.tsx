import styled from 'styled-components';
import { Skeleton } from '@campus/kit/ui';

const Row = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Lines = styled.div`
  flex: 1;
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
`;

/** The placeholder of one post card while a list loads (hidden from assistive technology). */
export function PostCardSkeleton() {
  return (
    <Row aria-hidden="true" data-testid="post-card-skeleton">
      <Skeleton $width="40px" $height="40px" $round />
      <Lines>
        <Skeleton $width="40%" $height="14px" />
        <Skeleton $height="14px" />
        <Skeleton $width="80%" $height="14px" />
        <Skeleton $width="50%" $height="14px" />
      </Lines>
    </Row>
  );
}
