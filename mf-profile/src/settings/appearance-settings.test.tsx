import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { COLOR_SCHEME_STORAGE_KEY } from '@campus/kit/color-scheme';
import { ADA, mockApi, renderPage, renderWithTheme } from '@campus/kit/testing';
import { AppearanceSettings } from './appearance-settings';
import SettingsPage from './settings-page';

const root = document.documentElement;

function renderAppearance() {
  const view = renderWithTheme(
    <>
      <h2 id="appearance">Appearance</h2>
      <AppearanceSettings headingId="appearance" />
    </>,
  );
  return { ...view, group: screen.getByRole('radiogroup', { name: 'Appearance' }) };
}

afterEach(() => {
  window.localStorage.clear();
  root.removeAttribute('data-theme');
});

describe('AppearanceSettings', () => {
  it('when nothing is stored, then System is chosen and the page follows the system', () => {
    const { group } = renderAppearance();
    const choices = within(group).getAllByRole('radio');
    expect(choices.map((choice) => choice.closest('label')?.textContent)).toEqual([
      'System',
      'Light',
      'Dark',
    ]);
    expect(within(group).getByRole('radio', { name: 'System' })).toBeChecked();
    expect(root).not.toHaveAttribute('data-theme');
  });

  it('when Dark is chosen, then the page turns dark, the device keeps it and a new page starts dark', async () => {
    const { group, unmount } = renderAppearance();
    await userEvent.click(within(group).getByRole('radio', { name: 'Dark' }));
    expect(root).toHaveAttribute('data-theme', 'dark');
    expect(window.localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBe('dark');
    expect(within(group).getByRole('radio', { name: 'Dark' })).toBeChecked();
    unmount();
    const again = renderAppearance();
    expect(within(again.group).getByRole('radio', { name: 'Dark' })).toBeChecked();
  });

  it('when the keyboard moves through the choices, then each one is applied, and System forgets the choice', async () => {
    const { group } = renderAppearance();
    await userEvent.tab();
    expect(within(group).getByRole('radio', { name: 'System' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(within(group).getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(root).toHaveAttribute('data-theme', 'light');
    await userEvent.keyboard('{ArrowRight}');
    expect(within(group).getByRole('radio', { name: 'Dark' })).toHaveFocus();
    expect(root).toHaveAttribute('data-theme', 'dark');
    await userEvent.keyboard('{ArrowRight}');
    expect(within(group).getByRole('radio', { name: 'System' })).toBeChecked();
    expect(root).not.toHaveAttribute('data-theme');
    expect(window.localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBeNull();
  });

  it('when another tab chooses Light, then this one shows Light too', () => {
    const { group } = renderAppearance();
    act(() => {
      window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'light');
      window.dispatchEvent(
        new StorageEvent('storage', { key: COLOR_SCHEME_STORAGE_KEY, newValue: 'light' }),
      );
    });
    expect(within(group).getByRole('radio', { name: 'Light' })).toBeChecked();
  });
});

it('when the Settings page opens, then it has the Appearance section with its three choices', async () => {
  mockApi();
  renderPage(<SettingsPage />, { path: '/settings', route: '/settings', signedInAs: ADA });
  const section = await screen.findByRole('region', { name: 'Appearance' });
  expect(within(section).getByRole('radiogroup', { name: 'Appearance' })).toBeInTheDocument();
  expect(within(section).getAllByRole('radio')).toHaveLength(3);
});
