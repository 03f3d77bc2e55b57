import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { KitThemeProvider } from '@campus/kit/theme';

/** Renders inside the Campus theme, as every app does. Test-only; not part of the kit's exports. */
export function renderWithTheme(ui: ReactElement) {
  return render(ui, { wrapper: ({ children }) => <KitThemeProvider>{children}</KitThemeProvider> });
}
