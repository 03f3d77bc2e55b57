import { render, screen } from '@testing-library/react';
import { UserText, USER_LINK_REL } from '@campus/kit/text';

describe('UserText', () => {
  it('turns web addresses into links that open in a new tab without passing the opener', () => {
    render(<UserText text="Slides at https://example.org/talk?x=1 and www.campus.edu, see you" />);
    const full = screen.getByRole('link', { name: 'https://example.org/talk?x=1' });
    expect(full).toHaveAttribute('href', 'https://example.org/talk?x=1');
    expect(full).toHaveAttribute('target', '_blank');
    expect(full).toHaveAttribute('rel', USER_LINK_REL);
    expect(USER_LINK_REL).toBe('noopener nofollow ugc');
    expect(screen.getByRole('link', { name: 'www.campus.edu' })).toHaveAttribute(
      'href',
      'https://www.campus.edu',
    );
    expect(screen.getByText(/Slides at/)).toHaveTextContent(
      'Slides at https://example.org/talk?x=1 and www.campus.edu, see you',
    );
  });

  it('leaves e-mail addresses, other schemes and markup as plain text', () => {
    const { container } = render(
      <UserText text={'Mail ada@campus.edu or try javascript:alert(1) <b>bold</b>'} />,
    );
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(container.querySelector('b')).toBeNull();
    expect(container).toHaveTextContent('<b>bold</b>');
  });

  it('lets the text decide its direction and renders as the element asked for', () => {
    render(<UserText as="blockquote" text="مرحبا بالجميع" data-testid="quote" />);
    const quote = screen.getByTestId('quote');
    expect(quote.tagName).toBe('BLOCKQUOTE');
    expect(quote).toHaveAttribute('dir', 'auto');
  });
});
