import type { ReactNode } from 'react';
import { createGlobalStyle, ThemeProvider } from 'styled-components';
import { colorSchemeCss, theme } from './theme';

export const GlobalStyle = createGlobalStyle`
  ${colorSchemeCss}
  *, *::before, *::after { box-sizing: border-box; }
  html, body { margin: 0; padding: 0; }
  body {
    font-family: ${({ theme: t }) => t.font.body};
    background: ${({ theme: t }) => t.colors.background};
    color: ${({ theme: t }) => t.colors.text};
    -webkit-font-smoothing: antialiased;
  }
  a { color: inherit; }
  :focus-visible { outline: 2px solid ${({ theme: t }) => t.colors.focus}; outline-offset: 2px; }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after { animation-duration: 0.01ms !important; transition-duration: 0.01ms !important; }
  }
`;

/** The Campus theme for everything below it; `global` also injects the page-wide base styles. */
export function KitThemeProvider({
  children,
  global = false,
}: {
  children: ReactNode;
  global?: boolean;
}) {
  return (
    <ThemeProvider theme={theme}>
      {global && <GlobalStyle />}
      {children}
    </ThemeProvider>
  );
}
