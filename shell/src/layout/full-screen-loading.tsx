import styled from 'styled-components';
import { Spinner } from '@campus/kit/ui';

const Screen = styled.div`
  position: fixed;
  inset: 0;
  display: flex;
  align-items: center;
  justify-content: center;
`;

/** Spec §2: shown while the session is checked at start-up. */
export function FullScreenLoading() {
  return (
    <Screen>
      <Spinner label="Loading..." size={40} />
    </Screen>
  );
}
