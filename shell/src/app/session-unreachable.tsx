import styled from 'styled-components';
import { useSession } from '@campus/kit/session';
import { Button } from '@campus/kit/ui';

const Screen = styled.main`
  position: fixed;
  inset: 0;
  display: grid;
  place-content: center;
  justify-items: center;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(6)};
  text-align: center;

  h1 {
    margin: 0;
    font-size: 1.25rem;
  }
  p {
    margin: 0;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/**
 * Shown instead of the start-up spinner while the API cannot be reached (or fails) to confirm
 * the stored login: the member stays signed in, the session keeps trying with back-off, and
 * Try again tries at once.
 */
export function SessionUnreachable() {
  const { retry } = useSession();
  return (
    <Screen aria-labelledby="session-unreachable-title">
      <h1 id="session-unreachable-title">Campus can&apos;t be reached right now</h1>
      <p role="status">You are still signed in. We will keep trying to connect.</p>
      <Button onClick={retry}>Try again</Button>
    </Screen>
  );
}
