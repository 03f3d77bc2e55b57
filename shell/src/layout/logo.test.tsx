import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi, signIn } from '@campus/kit/testing';
import { renderApp } from '../testing/render-app';

const ada = { id: 3, name: 'Ada Okafor', email: 'ada@campus.edu', avatarUrl: null };

function withLogo(logoUrl: string) {
  signIn(ada);
  mockApi(({ path }) => {
    if (path === '/api/settings') return { status: 200, body: { logo_url: logoUrl } };
    return undefined;
  });
}

async function sidebarLogo() {
  const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
  return sidebar.querySelector('img[data-testid="logo"]') as HTMLImageElement;
}

beforeEach(() => window.localStorage.clear());

describe('Logo', () => {
  it("uses the bundled logo for 'local'", async () => {
    withLogo('local');
    renderApp('/search');
    expect((await sidebarLogo()).getAttribute('src')).toBe('test-file-stub');
  });

  it('uses the configured image, then the bundled logo, then a word mark when images fail', async () => {
    withLogo('/uploads/brand.png');
    renderApp('/search');
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    const logo = () => sidebar.querySelector<HTMLImageElement>('img[data-testid="logo"]');
    await waitFor(() => expect(logo()).toHaveAttribute('src', 'http://api.test/uploads/brand.png'));
    fireEvent.error(logo() as HTMLImageElement);
    expect(logo()).toHaveAttribute('src', 'test-file-stub');
    fireEvent.error(logo() as HTMLImageElement);
    expect(logo()).toBeNull();
    expect(sidebar).toHaveTextContent('Campus');
  });
});
