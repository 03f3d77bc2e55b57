import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { find } from 'linkifyjs';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { UserText, USER_LINK_REL } from '@campus/kit/text';
import { LINK_OPTIONS } from './linkify-links';
import { mayContainLink } from './linkified-text';

describe('UserText', () => {
  it('turns web addresses into links that open in a new tab without passing the opener', async () => {
    render(<UserText text="Slides at https://example.org/talk?x=1 and www.campus.edu, see you" />);
    const full = await screen.findByRole('link', { name: 'https://example.org/talk?x=1' });
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

  it('shows the same characters before the links arrive, so nothing moves when they do', async () => {
    const text = 'Slides at campus.edu/talk, see you';
    render(<UserText text={text} data-testid="text" />);
    expect(screen.getByTestId('text')).toHaveTextContent(text);
    expect(await screen.findByRole('link', { name: 'campus.edu/talk' })).toBeInTheDocument();
    expect(screen.getByTestId('text')).toHaveTextContent(text);
  });

  it('leaves e-mail addresses, other schemes and markup as plain text', async () => {
    const { container } = render(
      <UserText text={'Mail ada@campus.edu or try javascript:alert(1) <b>bold</b>'} />,
    );
    // The text may hold an address (a dot between letters): the tokenizer is fetched and finds none.
    await import('./linkify-links');
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

function Location() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

describe('UserText with #tags and @mentions (issue 40)', () => {
  it('links tags to their pages and mentions to the profiles, in the app, keeping the text', async () => {
    const text = 'Thanks @Ada Okafor! See you at the #CaféFair and #مَدرسة';
    render(
      <MemoryRouter>
        <UserText text={text} tags mentions={[{ id: 1, start: 7, end: 18 }]} data-testid="text" />
        <Location />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('text')).toHaveTextContent(text);
    const mention = screen.getByRole('link', { name: '@Ada Okafor' });
    expect(mention).toHaveAttribute('href', '/profile/1');
    expect(mention).not.toHaveAttribute('target');
    expect(screen.getByRole('link', { name: '#CaféFair' })).toHaveAttribute(
      'href',
      '/tags/cafefair',
    );
    // an Arabic tag keeps its own direction inside the English text, and links without harakat
    const arabic = screen.getByRole('link', { name: '#مَدرسة' });
    expect(arabic).toHaveAttribute('dir', 'auto');
    expect(arabic).toHaveAttribute('href', `/tags/${encodeURIComponent('مدرسة')}`);
    await userEvent.click(mention);
    expect(screen.getByTestId('location')).toHaveTextContent('/profile/1');
  });

  it('keeps a web address with a #fragment one link once linkifyjs is there', async () => {
    render(
      <MemoryRouter>
        <UserText text="Agenda: campus.edu/fair/#day2 #fair" tags />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('link', { name: 'campus.edu/fair/#day2' })).toHaveAttribute(
      'href',
      'https://campus.edu/fair/#day2',
    );
    expect(screen.getByRole('link', { name: '#fair' })).toHaveAttribute('href', '/tags/fair');
    expect(screen.getAllByRole('link')).toHaveLength(2);
  });

  it("leaves '#' words as text where tags are not asked for (a bio)", () => {
    render(<UserText text="Chemistry #2027 #fair" data-testid="bio" />);
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByTestId('bio')).toHaveTextContent('Chemistry #2027 #fair');
  });
});

describe('mayContainLink', () => {
  // Texts linkifyjs finds web addresses in, and texts it does not: the cheap test must say yes to
  // every text with an address, or the address would stay plain text.
  const texts = [
    'See campus.edu',
    'www.campus.edu/events?x=1',
    'https://example.org',
    'http://intranet/wiki',
    'HTTPS://EXAMPLE.ORG',
    'LOCALHOST',
    'Slides: example.co.uk/a.pdf.',
    'مرحبا example.org',
    '(see docs.campus.edu)',
    'ip 10.0.0.1 works',
    'localhost:3000/health',
    'ends with a dot. Next sentence',
    'e.g. this',
    'no link here at all',
    'Mail ada@campus.edu',
    'javascript:alert(1)',
    'ftp://files.campus.edu',
    'a . b',
    'version 3.5',
    'dots... everywhere...',
    '',
  ];

  it('is true for every text in which linkifyjs finds a web address', () => {
    const validate = LINK_OPTIONS.validate as (value: string, type: string) => boolean;
    const withLinks = texts.filter((text) =>
      find(text).some((link) => validate(link.value, link.type)),
    );
    // linkifyjs's own answer (checked here so the list keeps testing something): the first 9.
    expect(withLinks).toEqual(texts.slice(0, 9));
    for (const text of withLinks) {
      expect({ text, may: mayContainLink(text) }).toEqual({ text, may: true });
    }
  });

  it('is false for texts without a dot between words, a web scheme or localhost', () => {
    for (const text of [
      'no link here at all',
      'a . b',
      'dots... everywhere...',
      '',
      'Hi @ada #fair',
    ]) {
      expect({ text, may: mayContainLink(text) }).toEqual({ text, may: false });
    }
  });
});
