import { render, screen } from '@testing-library/react';
import { KitThemeProvider } from '@campus/kit/theme';
import { KitVersionMismatchError } from './kit-compatibility';
import { RemoteBoundary } from './remote-boundary';

function Throws({ error }: { error: Error }): never {
  throw error;
}

function renderFailing(error: Error) {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  return render(
    <KitThemeProvider>
      <RemoteBoundary what="the feed" onRetry={() => undefined}>
        <Throws error={error} />
      </RemoteBoundary>
    </KitThemeProvider>,
  );
}

describe('RemoteBoundary', () => {
  it('blames the connection when a remote cannot be fetched', () => {
    renderFailing(new Error('mf_feed is down'));
    expect(screen.getByRole('alert')).toHaveTextContent(
      "We couldn't load the feed. Check your connection and try again.",
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('says a remote built for another kit major was refused, and which versions disagree', () => {
    renderFailing(new KitVersionMismatchError('mf_feed', '2.0.0', '1.1.0'));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('This part of Campus is being updated');
    expect(alert).toHaveTextContent(
      "We couldn't load the feed: it was built for another version of Campus.",
    );
    expect(alert).toHaveTextContent('mf_feed needs @campus/kit 2.0.0; this page provides 1.1.0.');
    expect(alert).not.toHaveTextContent('connection');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
