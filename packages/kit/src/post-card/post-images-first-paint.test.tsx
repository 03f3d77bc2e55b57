// A file of its own: whether the page has painted is the page's (module) state, and these tests
// need a page that has not painted post images yet.
import { screen, within } from '@testing-library/react';
import { thumbHashToAverageRGBA } from 'thumbhash';
import { configureApi } from '@campus/kit/api';
import { PostImages } from '@campus/kit/post-card';
import { TEST_API_URL, TEST_THUMBHASH, makeImage, mockApi, renderPage } from '@campus/kit/testing';
import { placeholderColor } from './image-sources';

const LAB = makeImage({ id: 'lab', alt: 'The robotics lab, two arms on a bench' });
const POSTER = makeImage({ id: 'poster', width: 900, height: 1600, alt: 'Club fair poster' });
const FAIR = makeImage({ id: 'fair', alt: 'The fair' });

beforeEach(() => {
  configureApi({ baseUrl: TEST_API_URL });
  mockApi(() => ({ status: 404 }));
});

describe('post images before the first paint', () => {
  it('when a ThumbHash is read for its colour, then it is its average colour; a broken one gives none', () => {
    const bytes = Uint8Array.from(atob(TEST_THUMBHASH), (char) => char.charCodeAt(0));
    const { r, g, b } = thumbHashToAverageRGBA(bytes);
    const [red, green, blue] = [r, g, b].map((value) => Math.round(value * 255));
    expect(placeholderColor(TEST_THUMBHASH)).toBe(`rgb(${red} ${green} ${blue} / 1.00)`);
    expect(placeholderColor('not base64 at all!')).toBe('');
  });

  it('when a page first draws posts with images, then the priority post has its pictures at once, the others only their coloured boxes until the page has painted, and then theirs, without moving', async () => {
    renderPage(
      <>
        <PostImages images={[FAIR]} priority />
        <PostImages images={[LAB, POSTER]} />
      </>,
    );
    const cells = screen.getAllByRole('button', { name: /^Open image/ });
    const [fair, lab, poster] = cells;
    // The page's first post: its picture (high priority) and its ThumbHash picture at once.
    expect(within(fair!).getByRole('img', { name: FAIR.alt })).toHaveAttribute(
      'fetchpriority',
      'high',
    );
    expect(fair!.style.backgroundImage).toMatch(/^url\("data:image\/png;base64,/);
    // The others: their boxes, named and in the average colour, without a picture or a request.
    for (const cell of [lab!, poster!]) {
      expect(cell.querySelector('picture, source, img')).toBeNull();
      expect(cell.style.backgroundImage).toBe('');
      expect(cell.style.backgroundColor).toMatch(/^rgb/);
    }
    expect(lab).toHaveAccessibleName(`Open image 1 of 2: ${LAB.alt}`);
    const grid = screen.getByRole('group', { name: '2 images' });
    expect(grid).toHaveStyle({ aspectRatio: '2' });

    // After the page has painted: the pictures, lazily loaded, and the ThumbHash under them.
    const img = await within(lab!).findByRole('img', { name: LAB.alt });
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(within(poster!).getByRole('img', { name: POSTER.alt })).toBeInTheDocument();
    expect(lab!.style.backgroundImage).toMatch(/^url\("data:image\/png;base64,/);
    expect(grid).toHaveStyle({ aspectRatio: '2' });

    // From then on, images drawn on the page come with their pictures at once.
    renderPage(<PostImages images={[makeImage({ id: 'later', alt: 'Later' })]} />);
    expect(screen.getByRole('img', { name: 'Later' })).toBeInTheDocument();
  });
});
