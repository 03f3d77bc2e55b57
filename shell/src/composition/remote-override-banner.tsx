import styled from 'styled-components';
import { mediaMobile } from '@campus/kit/theme';
import { Button } from '@campus/kit/ui';
import type { RemoteName } from '../app/runtime-config';
import { clearRemoteOverride, type RemoteOverrides } from './remote-overrides';

/** Bottom centre, clear of the headings; small screens: above the bottom bar, left of the post button. */
const Banner = styled.section`
  position: fixed;
  bottom: ${({ theme }) => theme.space(4)};
  left: 50%;
  z-index: 200;
  transform: translateX(-50%);
  max-width: calc(100vw - ${({ theme }) => theme.space(4)});
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  width: max-content;
  padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.lg};
  font-size: 0.8125rem;

  p {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(2)};
    align-items: center;
    margin: 0;
    overflow-wrap: anywhere;
  }

  ${mediaMobile} {
    bottom: 72px;
    left: ${({ theme }) => theme.space(2)};
    transform: none;
    max-width: calc(100vw - 96px);
  }
`;

interface Props {
  overrides: Pick<RemoteOverrides, 'active' | 'refused'>;
  /** Removes one remote's override; by default from this browser, then reloads the page. */
  onClear?: (remote: RemoteName) => void;
}

function clearAndReload(remote: RemoteName) {
  clearRemoteOverride(window.localStorage, remote);
  // The overridden remote's code is already running: only a fresh page drops it.
  window.location.reload();
}

/**
 * Tells whoever set an override that this page is not what everyone else sees: which remote
 * comes from where, with one click to go back to the deployed one. Refused overrides say why.
 */
export function RemoteOverrideBanner({ overrides, onClear = clearAndReload }: Props) {
  const { active, refused } = overrides;
  if (active.length === 0 && refused.length === 0) return null;
  return (
    <Banner aria-label="Remote overrides">
      {active.map(({ remote, url }) => (
        <p key={remote}>
          <span>
            <strong>{remote}</strong> from {url}
          </span>
          <Button size="sm" variant="secondary" onClick={() => onClear(remote)}>
            Clear
          </Button>
        </p>
      ))}
      {refused.map(({ request, reason }) => (
        <p key={request} role="alert">
          Override refused: {request} ({reason})
        </p>
      ))}
    </Banner>
  );
}
