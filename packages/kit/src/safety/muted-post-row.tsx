import styled from 'styled-components';

const Row = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;

  button {
    min-height: 32px;
    padding: 0 ${({ theme }) => theme.space(3)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.full};
    background: ${({ theme }) => theme.colors.surface};
    color: ${({ theme }) => theme.colors.text};
    font: inherit;
    cursor: pointer;
  }
  button:hover,
  button:focus-visible {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
`;

/**
 * A post that contains one of the viewer's muted words, collapsed (issue 38): one line and a
 * Show button that opens it. The word itself is not repeated (it is what the viewer avoids).
 */
export function MutedPostRow({ authorName, onShow }: { authorName: string; onShow: () => void }) {
  return (
    <Row role="group" aria-label={`Hidden post by ${authorName}`}>
      <span>Hidden: contains a muted word</span>
      <button type="button" aria-expanded={false} onClick={onShow}>
        Show
      </button>
    </Row>
  );
}
