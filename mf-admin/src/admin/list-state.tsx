import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button, EmptyState, Skeleton } from '@campus/kit/ui';

const Loading = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
`;

/**
 * What an admin list shows before its rows: placeholders while the first page loads, the error
 * with Retry, or the empty message. Null when there are rows to show.
 */
export function ListState({
  isLoading,
  error,
  empty,
  emptyText,
  onRetry,
  what,
}: {
  isLoading: boolean;
  error: unknown;
  empty: boolean;
  emptyText: string;
  onRetry: () => void;
  what: string;
}): ReactNode {
  if (error) {
    return (
      <EmptyState
        title={`Could not load ${what}`}
        description="Check your connection and try again."
        action={
          <Button variant="secondary" size="sm" onClick={onRetry}>
            Retry
          </Button>
        }
      />
    );
  }
  if (isLoading) {
    return (
      <Loading aria-busy="true" aria-label={`Loading ${what}`}>
        <Skeleton $height="64px" />
        <Skeleton $height="64px" />
        <Skeleton $height="64px" />
      </Loading>
    );
  }
  if (empty) return <EmptyState description={emptyText} />;
  return null;
}
