import { Component, type ErrorInfo, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '@campus/kit/ui';
import { isKitVersionMismatch } from './kit-compatibility';

const ErrorBox = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(12)} ${({ theme }) => theme.space(4)};
  text-align: center;
  color: ${({ theme }) => theme.colors.textMuted};

  h2 {
    margin: 0;
    font-size: 1.125rem;
    color: ${({ theme }) => theme.colors.text};
  }
  p {
    margin: 0;
  }

  small {
    max-width: 48ch;
    font-size: 0.75rem;
  }
`;

interface Props {
  /** What failed, for the message ("this page", "the post composer"). */
  what: string;
  onRetry: () => void;
  children: ReactNode;
  /** A compact view for small slots (the composer); the default is a page-sized message. */
  compact?: boolean;
}

/**
 * Catches a remote that cannot be fetched or throws while rendering, so the shell, the session
 * and the other remotes keep working. Retry re-renders the slot without reloading the page.
 */
export class RemoteBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`Could not show ${this.props.what}`, error, info.componentStack);
  }

  private retry = () => {
    this.props.onRetry();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    // A remote built for another major version of the kit will not load until one of the two is
    // redeployed: say so, instead of blaming the member's connection.
    const versionMismatch = isKitVersionMismatch(error);
    return (
      <ErrorBox role="alert" data-testid="remote-error">
        {!this.props.compact && (
          <h2>
            {versionMismatch ? 'This part of Campus is being updated' : 'Something went wrong'}
          </h2>
        )}
        {versionMismatch ? (
          <>
            <p>
              We couldn&apos;t load {this.props.what}: it was built for another version of Campus.
              Please try again later.
            </p>
            <small>
              {error.remote} needs @campus/kit {error.remoteKit}; this page provides{' '}
              {error.shellKit}.
            </small>
          </>
        ) : (
          <p>We couldn&apos;t load {this.props.what}. Check your connection and try again.</p>
        )}
        <Button variant="secondary" onClick={this.retry}>
          Retry
        </Button>
      </ErrorBox>
    );
  }
}
