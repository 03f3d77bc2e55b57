import { useState } from 'react';
import styled from 'styled-components';
import { resolveApiUrl } from '@campus/kit/api';
import { useSettings } from '@campus/kit/data';
import { useColorScheme } from '@campus/kit/theme';
import darkLogo from '../assets/logo-dark.svg';
import lightLogo from '../assets/logo.svg';

const Image = styled.img`
  display: block;
  height: 32px;
  width: auto;
`;

const Wordmark = styled.span`
  font-weight: 800;
  font-size: 1.25rem;
  color: ${({ theme }) => theme.colors.primary};
`;

/**
 * Spec §2: the logo comes from the `logo_url` setting; 'local' (or no setting) means the bundled
 * logo (in the page's colour scheme). A custom image that fails falls back to the bundled logo, and that to a word mark.
 */
export function Logo() {
  const { data: settings } = useSettings();
  // The bundled logo's word is dark on light, light on dark (issue 41, dark mode).
  const bundledLogo = useColorScheme() === 'dark' ? darkLogo : lightLogo;
  const configured = settings?.logo_url;
  const custom =
    typeof configured === 'string' && configured && configured !== 'local'
      ? resolveApiUrl(configured)
      : null;
  const [failed, setFailed] = useState<ReadonlySet<string>>(new Set());
  const candidate = [custom, bundledLogo].find(
    (src): src is string => Boolean(src) && !failed.has(src as string),
  );
  if (!candidate) return <Wordmark>Campus</Wordmark>;
  return (
    <Image
      src={candidate}
      alt="Campus"
      data-testid="logo"
      onError={() => setFailed((previous) => new Set(previous).add(candidate))}
    />
  );
}
