import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { EmptyState } from '@campus/kit/ui';
import { WhoToFollow } from '../who-to-follow/who-to-follow';
import { WidgetBoundary } from '../who-to-follow/widget-boundary';

const InFeedSuggestions = styled.div`
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const CallToAction = styled(Link)`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 0 ${({ theme }) => theme.space(5)};
  border-radius: ${({ theme }) => theme.radius.full};
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.onPrimary};
  font-weight: 600;
  text-decoration: none;

  &:hover {
    background: ${({ theme }) => theme.colors.primaryHover};
  }
`;

/** Who to follow among the feed's cards, where there is no right column to hold it. */
export function InFeedWhoToFollow() {
  return (
    <WidgetBoundary>
      <InFeedSuggestions>
        <WhoToFollow />
      </InFeedSuggestions>
    </WidgetBoundary>
  );
}

/**
 * The Following tab with nothing in it (issue 41): the spec's text, the way to people, and some
 * of them (here when there is no right column; in it otherwise).
 */
export function EmptyFollowing({ description, wide }: { description: string; wide: boolean }) {
  return (
    <>
      <EmptyState
        description={description}
        action={<CallToAction to="/search?tab=people">Find people to follow</CallToAction>}
      />
      {!wide && <InFeedWhoToFollow />}
    </>
  );
}
