import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { KitThemeProvider } from '@campus/kit/theme';
import { RemoteOverrideBanner } from './remote-override-banner';

const url = 'https://preview.campus.test/mf-manifest.json';

describe('RemoteOverrideBanner', () => {
  it('shows nothing when no remote is overridden', () => {
    const { container } = render(
      <KitThemeProvider>
        <RemoteOverrideBanner overrides={{ active: [], refused: [] }} />
      </KitThemeProvider>,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('names each overridden remote and where it comes from, with a Clear for each', async () => {
    const onClear = jest.fn();
    render(
      <KitThemeProvider>
        <RemoteOverrideBanner
          overrides={{ active: [{ remote: 'mf_feed', url }], refused: [] }}
          onClear={onClear}
        />
      </KitThemeProvider>,
    );
    const banner = screen.getByRole('region', { name: 'Remote overrides' });
    expect(banner).toHaveTextContent(`mf_feed from ${url}`);
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onClear).toHaveBeenCalledWith('mf_feed');
  });

  it('says why an override was refused', () => {
    render(
      <KitThemeProvider>
        <RemoteOverrideBanner
          overrides={{
            active: [],
            refused: [{ request: 'mf_feed=https://evil.example/m.json', reason: 'not listed' }],
          }}
        />
      </KitThemeProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Override refused: mf_feed=https://evil.example/m.json (not listed)',
    );
  });
});
