import styled, { keyframes } from 'styled-components';

const spin = keyframes`
  to { transform: rotate(360deg); }
`;

const Ring = styled.span<{ $size: number }>`
  display: inline-block;
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  border: 3px solid ${({ theme }) => theme.colors.border};
  border-top-color: ${({ theme }) => theme.colors.primary};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
`;

const Wrapper = styled.div`
  display: inline-flex;
  flex-direction: column;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** A busy indicator with a visible label that screen readers announce. */
export function Spinner({ label, size = 32 }: { label?: string; size?: number }) {
  return (
    <Wrapper role="status" aria-label={label ?? 'Loading'}>
      <Ring $size={size} aria-hidden="true" />
      {label && <span>{label}</span>}
    </Wrapper>
  );
}
