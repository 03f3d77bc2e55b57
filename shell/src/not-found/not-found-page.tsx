import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { touchTextTarget } from '@campus/kit/theme';

const Box = styled.main`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(16)} ${({ theme }) => theme.space(4)};
  text-align: center;

  h1 {
    margin: 0;
    font-size: 1.5rem;
  }
  a {
    ${touchTextTarget}
  }
`;

export function NotFoundPage() {
  return (
    <Box>
      <h1>404 Page Not Found</h1>
      <Link to="/">Back to Home</Link>
    </Box>
  );
}
